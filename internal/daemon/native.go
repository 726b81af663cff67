package daemon

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/skiff-ai/skiff/internal/link"
)

// NativeConn is a link over Chrome native messaging: each message is JSON after its length as
// a 32-bit integer in native byte order (little-endian on every platform Chrome runs on).
// Chrome limits a message to the host to 4 GB and one from the host to 1 MB.
type NativeConn struct {
	R io.Reader
	W io.Writer

	once sync.Once
	in   chan []byte
	err  error
	wmu  sync.Mutex
}

// MaxNativeMessage is the largest message Chrome accepts from a native host.
const MaxNativeMessage = 1 << 20

func (c *NativeConn) start() {
	c.in = make(chan []byte)
	go func() {
		defer close(c.in)
		for {
			var n uint32
			if err := binary.Read(c.R, binary.LittleEndian, &n); err != nil {
				c.err = err
				return
			}
			if n > 64<<20 {
				c.err = fmt.Errorf("a native message of %d bytes is too large", n)
				return
			}
			b := make([]byte, n)
			if _, err := io.ReadFull(c.R, b); err != nil {
				c.err = err
				return
			}
			c.in <- b
		}
	}()
}

func (c *NativeConn) Read(ctx context.Context) ([]byte, error) {
	c.once.Do(c.start)
	select {
	case b, ok := <-c.in:
		if !ok {
			if c.err == nil {
				c.err = io.EOF
			}
			return nil, c.err
		}
		return b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *NativeConn) Write(_ context.Context, b []byte) error {
	if len(b) > MaxNativeMessage {
		return fmt.Errorf("a message of %d bytes is over Chrome's 1 MB limit for native messages", len(b))
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], uint32(len(b)))
	if _, err := c.W.Write(n[:]); err != nil {
		return err
	}
	_, err := c.W.Write(b)
	return err
}

// Close does nothing: Chrome ends the host by closing its stdin.
func (c *NativeConn) Close(string) {}

// Native runs skiffd as Chrome's native messaging host: the link is the pipe Chrome gave it
// (no port needed for it), and MCP clients reach it on the configured port as usual.
func Native(ctx context.Context, cfg *Config, in io.Reader, out io.Writer) error {
	hub := NewHub(cfg.PairToken)
	if ln, err := Listen(cfg.Port); err == nil {
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() { _ = Serve(sctx, ln, cfg, hub, nil) }()
	}
	return hub.Serve(ctx, &NativeConn{R: in, W: out})
}

// HostManifest is Chrome's native messaging host manifest for skiffd.
type HostManifest struct {
	Name           string   `json:"name"`
	Description    string   `json:"description"`
	Path           string   `json:"path"`
	Type           string   `json:"type"`
	AllowedOrigins []string `json:"allowed_origins"`
}

// ManifestDirs are where Chrome, Chromium, Brave and Edge look for a user's native messaging
// hosts on this system. (On Windows the manifest's path goes in the registry instead, under
// HKCU\Software\Google\Chrome\NativeMessagingHosts\ai.skiff.skiffd; see the README.)
func ManifestDirs() []string {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	var rel []string
	switch runtime.GOOS {
	case "darwin":
		base := filepath.Join(home, "Library", "Application Support")
		rel = []string{filepath.Join(base, "Google", "Chrome"), filepath.Join(base, "Chromium"),
			filepath.Join(base, "BraveSoftware", "Brave-Browser"), filepath.Join(base, "Microsoft Edge")}
	case "linux":
		base := filepath.Join(home, ".config")
		rel = []string{filepath.Join(base, "google-chrome"), filepath.Join(base, "chromium"),
			filepath.Join(base, "BraveSoftware", "Brave-Browser"), filepath.Join(base, "microsoft-edge")}
	}
	var out []string
	for _, d := range rel {
		out = append(out, filepath.Join(d, "NativeMessagingHosts"))
	}
	return out
}

// Install writes the host manifest into each of dirs (a browser's NativeMessagingHosts
// folder), pointing at exe, and returns the files written.
func Install(cfg *Config, exe string, dirs []string) ([]string, error) {
	if !filepath.IsAbs(exe) {
		return nil, errors.New("the host's path must be absolute")
	}
	m := HostManifest{Name: link.NativeHost, Description: "Skiff's native companion (skiffd)", Path: exe, Type: "stdio",
		AllowedOrigins: []string{"chrome-extension://" + cfg.Extension() + "/"}}
	b, _ := json.MarshalIndent(m, "", "  ")
	var written []string
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return written, err
		}
		f := filepath.Join(d, link.NativeHost+".json")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			return written, err
		}
		written = append(written, f)
	}
	return written, nil
}
