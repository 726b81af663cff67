package daemon

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skiff-ai/skiff/internal/link"
)

// Listen opens skiffd's port on loopback only.
func Listen(port int) (net.Listener, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("skiffd cannot listen on 127.0.0.1:%d (%v): another skiffd may be running there (`skiffd doctor`), or choose another port with --port", port, err)
	}
	return ln, nil
}

// Serve serves the HTTP front (MCP for clients, the extension's link, the web client) on ln
// until ctx ends; with lan (nil: none), the web client on the local network too.
func Serve(ctx context.Context, ln net.Listener, cfg *Config, hub *Hub, lan *LAN) error {
	agents := NewAgents(cfg, hub)
	web := newWeb(cfg, agents, lan)
	srv := &http.Server{Handler: Handler(cfg, hub, NewMCPServer(hub, agents), agents, web), ReadHeaderTimeout: 10 * time.Second}
	var lanSrv *http.Server
	if lan != nil {
		// A phone that has not accepted the certificate yet fails its handshakes: not news.
		lanSrv = &http.Server{Handler: web.LANHandler(), ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
		for _, l := range lan.listeners {
			go func() { _ = lanSrv.Serve(l) }()
		}
	}
	go func() {
		<-ctx.Done()
		agents.Close()
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		hub.Drop()
		web.drop()
		if lanSrv != nil {
			_ = lanSrv.Shutdown(sctx)
		}
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		if lan != nil {
			lan.Close()
		}
		return err
	}
	return nil
}

// Stdio serves MCP over in and out for a client that spawned skiffd. The extension's link is
// accepted on the configured port; when another skiffd already holds that port (a `skiffd
// serve`), calls are relayed to it instead, so one browser serves every client.
func Stdio(ctx context.Context, cfg *Config, in io.ReadCloser, out io.WriteCloser) error {
	var caller Caller
	ln, err := Listen(cfg.Port)
	if err == nil {
		hub := NewHub(cfg.PairToken)
		caller = hub
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() { _ = Serve(sctx, ln, cfg, hub, nil) }()
	} else {
		// An agent skiffd hosts gets its own token, so the running skiffd names it.
		token := cmp.Or(os.Getenv("SKIFFD_AGENT_TOKEN"), cfg.MCPToken)
		caller = &Relay{URL: "http://127.0.0.1:" + strconv.Itoa(cfg.Port) + "/mcp", Token: token}
	}
	return NewMCPServer(caller, nil).Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
}

// Relay runs calls through another skiffd's MCP endpoint (the one holding the browser's link),
// as the client that asked, so the user still sees who asks.
type Relay struct {
	URL, Token string

	mu       sync.Mutex
	sessions map[string]*mcp.ClientSession
	progress sync.Map // progress token → func(string), for the calls whose client asked for it
	tokens   atomic.Int64
}

// Call relays one call.
func (r *Relay) Call(ctx context.Context, client link.Client, name string, args json.RawMessage) (*link.CallResult, error) {
	cs, err := r.session(ctx, client)
	if err != nil {
		return nil, err
	}
	var a any
	if len(args) > 0 {
		a = args
	}
	p := &mcp.CallToolParams{Name: name, Arguments: a}
	if say := progressOf(ctx); say != nil { // the progress the running skiffd hears, passed on
		tok := "relay-" + strconv.FormatInt(r.tokens.Add(1), 10)
		r.progress.Store(tok, say)
		defer r.progress.Delete(tok)
		p.SetProgressToken(tok)
	}
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("the skiffd at %s failed: %w", r.URL, err)
	}
	out := &link.CallResult{IsError: res.IsError}
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			out.Text += c.Text
		case *mcp.ImageContent:
			out.Image = &link.Image{Mime: c.MIMEType, Data: c.Data}
		}
	}
	return out, nil
}

func (r *Relay) session(ctx context.Context, client link.Client) (*mcp.ClientSession, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cs := r.sessions[client.ID]; cs != nil {
		return cs, nil
	}
	c := mcp.NewClient(&mcp.Implementation{Name: client.Name, Version: Version}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			if say, ok := r.progress.Load(req.Params.ProgressToken); ok {
				say.(func(string))(req.Params.Message)
			}
		}})
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: r.URL, HTTPClient: BearerClient(r.Token)}, nil)
	if err != nil {
		return nil, fmt.Errorf("the skiffd on %s did not answer (%v): `skiffd doctor` says why", r.URL, err)
	}
	if r.sessions == nil {
		r.sessions = map[string]*mcp.ClientSession{}
	}
	r.sessions[client.ID] = cs
	return cs, nil
}

// Bye ends a relayed client's session.
func (r *Relay) Bye(client link.Client) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cs := r.sessions[client.ID]; cs != nil {
		_ = cs.Close()
		delete(r.sessions, client.ID)
	}
}

// BearerClient is an HTTP client that presents token to skiffd.
func BearerClient(token string) *http.Client {
	return &http.Client{Transport: bearer{token}}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
