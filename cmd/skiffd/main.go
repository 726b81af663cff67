// Command skiffd is Skiff's native companion: it lends the browser's tools (the very registry
// the panel's agent uses, each call through the extension's permission gate) to outside agents
// over MCP.
//
//	skiffd serve [--port N]   Streamable HTTP MCP on 127.0.0.1:N/mcp, and the extension's link
//	skiffd serve --lan        also the web client (only it) over HTTPS on the local network
//	skiffd stdio              MCP over stdin/stdout, for clients that spawn their servers
//	skiffd token              the bearer token MCP clients send over HTTP
//	skiffd pair [--new]       the pairing token to paste into Skiff's settings
//	skiffd install            register skiffd as Chrome's native messaging host
//	skiffd doctor             check every link of the chain and say what to fix
//	skiffd open [--lan]       a one-time link to the web client (on the LAN: a QR code)
//	skiffd unpair             forget every browser and phone paired with the web client
package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/skiff-ai/skiff/internal/acphost"
	"github.com/skiff-ai/skiff/internal/daemon"
)

const usage = `skiffd lends your browser's tools to MCP clients, through Skiff's permission gate.

  skiffd serve [--port N]   serve MCP on http://127.0.0.1:N/mcp (default 8765)
  skiffd serve --lan [--lan-addr IP,…] [--lan-port N] [--cert F --key F]
                            also serve the web client (and nothing else) over HTTPS to
                            the local network (a phone), on port N+1 by default
  skiffd stdio              serve MCP on stdin/stdout (for clients that spawn servers)
  skiffd token              print the bearer token for MCP clients over HTTP
  skiffd pair [--new]       print the pairing token to paste into Skiff's settings
  skiffd install [--dir D]  register skiffd as Chrome's native messaging host
  skiffd doctor             check every link of the chain and say what to fix
  skiffd agents             list the ACP agents skiffd can host (installed or not)
  skiffd agents add NAME "TITLE" COMMAND [ARGS…]   add an agent (or replace a preset)
  skiffd agents folder DIR  the one folder agents may read and write ("" for none)
  skiffd open               print (and open) a one-time link to the web client at /app/
  skiffd open --lan         a QR code with a 2-minute one-time link for a phone on the LAN
  skiffd unpair             forget every browser and phone paired with the web client
                            (pairings last 30 days, and across restarts)

The configuration lives in $SKIFFD_HOME (default: %s).
`

func main() {
	log.SetFlags(0)
	log.SetPrefix("skiffd: ")
	args := os.Args[1:]
	if len(args) > 0 && strings.HasPrefix(args[0], "chrome-extension://") {
		// Chrome started us as its native messaging host: the link is our stdin and stdout.
		run(func(ctx context.Context, cfg *daemon.Config) error {
			return daemon.Native(ctx, cfg, os.Stdin, os.Stdout)
		})
		return
	}
	if len(args) == 0 {
		fmt.Fprintf(os.Stderr, usage, daemon.DefaultDir())
		os.Exit(2)
	}
	fs := flag.NewFlagSet(args[0], flag.ExitOnError)
	port := fs.Int("port", 0, "the loopback port (saved in the configuration)")
	renew := fs.Bool("new", false, "pair: make a new pairing token (the old one stops working)")
	dir := fs.String("dir", "", "install: write the host manifest into this NativeMessagingHosts folder only")
	lan := fs.Bool("lan", false, "serve: the web client on the local network too (HTTPS); open: a link for a phone there")
	lanAddr := fs.String("lan-addr", "", "serve --lan: the addresses to serve the LAN on, comma-separated (default: this computer's private IPv4 addresses)")
	lanPort := fs.Int("lan-port", 0, "serve --lan: the LAN port (default: --port + 1)")
	certFile := fs.String("cert", "", "serve --lan: a certificate (PEM) the phone trusts, instead of skiffd's self-signed one")
	keyFile := fs.String("key", "", "serve --lan: the certificate's private key (PEM)")
	_ = fs.Parse(args[1:])
	cfg, err := daemon.Load(daemon.DefaultDir())
	if err != nil {
		log.Fatal(err)
	}
	if *port != 0 && *port != cfg.Port {
		cfg.Port = *port
		if err := cfg.Save(); err != nil {
			log.Fatal(err)
		}
	}
	switch args[0] {
	case "serve":
		run(func(ctx context.Context, cfg *daemon.Config) error {
			ln, err := daemon.Listen(cfg.Port)
			if err != nil {
				return err
			}
			var l *daemon.LAN
			if *lan {
				addrs := daemon.LANAddrs()
				if *lanAddr != "" {
					addrs = strings.Split(*lanAddr, ",")
				}
				if l, err = daemon.ListenLAN(cfg, addrs, cmp.Or(*lanPort, cfg.Port+1), *certFile, *keyFile); err != nil {
					ln.Close()
					return err
				}
			}
			log.Printf("serving MCP on http://127.0.0.1:%d/mcp; the extension links on ws://127.0.0.1:%d/ext", cfg.Port, cfg.Port)
			if l != nil {
				log.Printf("serving the web client to the local network on %s (certificate SHA-256 %s); `skiffd open --lan` pairs a phone", l.URL(), l.Fingerprint())
			}
			return daemon.Serve(ctx, ln, cfg, daemon.NewHub(cfg.PairToken), l)
		})
	case "stdio":
		run(func(ctx context.Context, cfg *daemon.Config) error {
			return daemon.Stdio(ctx, cfg, os.Stdin, os.Stdout)
		})
	case "token":
		fmt.Println(cfg.MCPToken)
	case "pair":
		if *renew {
			cfg.PairToken = daemon.NewToken("skp_")
			if err := cfg.Save(); err != nil {
				log.Fatal(err)
			}
		}
		fmt.Println(cfg.PairToken)
		fmt.Fprintf(os.Stderr, "Paste it into Skiff's Settings › Outside agents (port %d). Anyone with it can link a browser to this skiffd.\n", cfg.Port)
	case "install":
		exe, err := os.Executable()
		if err == nil {
			exe, err = filepath.EvalSymlinks(exe)
		}
		if err != nil {
			log.Fatal(err)
		}
		dirs := daemon.ManifestDirs()
		if *dir != "" {
			dirs = []string{*dir}
		}
		if len(dirs) == 0 {
			log.Fatal("this system has no native messaging folders skiffd knows; on Windows, see the README")
		}
		files, err := daemon.Install(cfg, exe, dirs)
		for _, f := range files {
			fmt.Println("wrote", f)
		}
		if err != nil {
			log.Fatal(err)
		}
	case "agents":
		if err := agents(cfg, fs.Args()); err != nil {
			log.Fatal(err)
		}
	case "open":
		c, err := openApp(cfg, *lan)
		if err != nil {
			log.Fatal(err)
		}
		if *lan {
			printLANCode(c)
			return
		}
		fmt.Println(c.URL)
		fmt.Fprintln(os.Stderr, "The link works once, for 5 minutes, on this computer. Opening it pairs that browser with skiffd's web client.")
		if p, err := exec.LookPath("xdg-open"); err == nil {
			_ = exec.Command(p, c.URL).Start()
		}
	case "unpair":
		n, err := unpair(cfg)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("Forgot %d paired %s: each must open a link from `skiffd open` again.\n", n, map[bool]string{true: "browser", false: "browsers"}[n == 1])
	case "doctor":
		if !daemon.Doctor(context.Background(), cfg, os.Stdout) {
			os.Exit(1)
		}
	default:
		fmt.Fprintf(os.Stderr, usage, daemon.DefaultDir())
		os.Exit(2)
	}
}

// run runs a long-lived mode until SIGINT or SIGTERM.
func run(f func(context.Context, *daemon.Config) error) {
	cfg, err := daemon.Load(daemon.DefaultDir())
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := f(ctx, cfg); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
}

// agents lists, adds and configures the ACP agents skiffd hosts.
func agents(cfg *daemon.Config, args []string) error {
	switch {
	case len(args) == 0:
		for _, s := range cfg.Specs() {
			where, ok := s.Installed()
			state := "not installed"
			if ok {
				state = "installed at " + where
			}
			fmt.Printf("%-8s %-14s %-32s %s\n", s.Name, s.Title, strings.Join(s.Command, " "), state)
		}
		folder := cfg.AgentSettings.Folder
		if folder == "" {
			folder = "none (agents get no files): skiffd agents folder DIR"
		}
		fmt.Println("\nShared folder:", folder)
		return nil
	case args[0] == "add" && len(args) >= 4:
		spec := acphost.Spec{Name: args[1], Title: args[2], Command: args[3:]}
		kept := cfg.AgentSettings.Agents[:0]
		for _, s := range cfg.AgentSettings.Agents {
			if s.Name != spec.Name {
				kept = append(kept, s)
			}
		}
		cfg.AgentSettings.Agents = append(kept, spec)
		return cfg.Save()
	case args[0] == "folder" && len(args) == 2:
		dir := args[1]
		if dir != "" {
			abs, err := filepath.Abs(dir)
			if err != nil {
				return err
			}
			if st, err := os.Stat(abs); err != nil || !st.IsDir() {
				return fmt.Errorf("%s is not a folder", abs)
			}
			dir = abs
		}
		cfg.AgentSettings.Folder = dir
		return cfg.Save()
	}
	return fmt.Errorf("usage: skiffd agents [add NAME \"TITLE\" COMMAND [ARGS…] | folder DIR]")
}

// openApp asks the running skiffd for a one-time pairing link to its web client, on this
// computer or (lan) for a device on the local network.
func openApp(cfg *daemon.Config, lan bool) (daemon.CodeReply, error) {
	var out daemon.CodeReply
	req, _ := http.NewRequest("POST", "http://127.0.0.1:"+strconv.Itoa(cfg.Port)+"/app/code", strings.NewReader(fmt.Sprintf(`{"lan":%v}`, lan)))
	resp, err := daemon.BearerClient(cfg.MCPToken).Do(req)
	if err != nil {
		return out, fmt.Errorf("skiffd is not serving on port %d: start it with `skiffd serve`", cfg.Port)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusConflict {
		return out, errors.New("this skiffd does not serve the local network: start it with `skiffd serve --lan`")
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&out) != nil {
		return out, fmt.Errorf("the skiffd on port %d did not give a pairing code (%s)", cfg.Port, resp.Status)
	}
	return out, nil
}

// unpair has the running skiffd forget every browser paired with its web client, and close
// their links; with none running, the pairings kept on disk are forgotten.
func unpair(cfg *daemon.Config) (int, error) {
	req, _ := http.NewRequest("POST", "http://127.0.0.1:"+strconv.Itoa(cfg.Port)+"/app/unpair", nil)
	resp, err := daemon.BearerClient(cfg.MCPToken).Do(req)
	if err != nil {
		return daemon.ForgetPairings(cfg.Dir())
	}
	defer resp.Body.Close()
	var out daemon.UnpairReply
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&out) != nil {
		return 0, fmt.Errorf("the skiffd on port %d did not forget its pairings (%s)", cfg.Port, resp.Status)
	}
	return out.Forgot, nil
}

// printLANCode shows a LAN pairing link as a QR code for a phone's camera, with what to check
// before trusting the page it opens.
func printLANCode(c daemon.CodeReply) {
	st, err := os.Stdout.Stat()
	tty := err == nil && st.Mode()&os.ModeCharDevice != 0
	q, err := daemon.QR(c.URL, tty)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(q)
	fmt.Println(c.URL)
	fmt.Fprintf(os.Stderr, "Scan it with a phone on this network: the link works once, for %d minutes.\n", int(daemon.LANCodeTTL.Minutes()))
	if c.SelfSigned {
		fmt.Fprintf(os.Stderr, "The certificate is skiffd's own, so the phone warns first. Go on only if the certificate it shows has this SHA-256 fingerprint:\n  %s\n", c.Fingerprint)
	}
}
