// Package daemon is skiffd as plain Go: its configuration and tokens, the hub that holds the
// extension's link, the MCP server that lends the extension's tools to outside agents, the
// HTTP front with its checks (bearer token, Host, Origin), and the doctor. cmd/skiffd is only
// its command line.
package daemon

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skiff-ai/skiff/internal/link"
)

// ExtensionID is the id of Skiff's extension: fixed by the public key in ext/manifest.json, so
// an unpacked copy loaded from any folder has it too.
const ExtensionID = "ooiagheicbpgkgcmgdgcbcfpbgckhacb"

// Config is skiffd's state on disk (config.json in Dir, readable by its owner only).
type Config struct {
	Port int `json:"port"`
	// PairToken is what the extension presents on its link (skiffd pair prints it).
	PairToken string `json:"pairToken"`
	// MCPToken is the bearer token MCP clients present over HTTP (skiffd token prints it).
	MCPToken string `json:"mcpToken"`
	// ExtensionID overrides the extension allowed to link (a build signed with another key).
	ExtensionID string `json:"extensionId,omitempty"`
	// AgentSettings are the ACP agents skiffd hosts and their folder.
	AgentSettings

	dir string
}

// DefaultDir is where the configuration lives: $SKIFFD_HOME, else the user's config dir.
func DefaultDir() string {
	if d := os.Getenv("SKIFFD_HOME"); d != "" {
		return d
	}
	d, err := os.UserConfigDir()
	if err != nil {
		d = os.TempDir()
	}
	return filepath.Join(d, "skiffd")
}

// Load reads the configuration in dir, creating it (with fresh tokens) if there is none.
func Load(dir string) (*Config, error) {
	c := &Config{dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		if err := json.Unmarshal(b, c); err != nil {
			return nil, fmt.Errorf("%s is not valid JSON (%v): fix it or delete it to start over", filepath.Join(dir, "config.json"), err)
		}
	}
	changed := false
	if c.Port == 0 {
		c.Port, changed = link.DefaultPort, true
	}
	if c.PairToken == "" {
		c.PairToken, changed = NewToken("skp_"), true
	}
	if c.MCPToken == "" {
		c.MCPToken, changed = NewToken("skm_"), true
	}
	if changed {
		return c, c.Save()
	}
	return c, nil
}

// Save writes the configuration, readable by its owner only.
func (c *Config) Save() error {
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(c, "", "  ")
	tmp := filepath.Join(c.dir, "config.json.tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(c.dir, "config.json"))
}

// Dir is where the configuration lives.
func (c *Config) Dir() string { return c.dir }

// Extension is the id of the extension allowed to link.
func (c *Config) Extension() string {
	if c.ExtensionID != "" {
		return c.ExtensionID
	}
	return ExtensionID
}

// NewToken is a random token: 32 bytes, base64url, after a prefix that says what it is for.
func NewToken(prefix string) string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return prefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// same compares a presented token with the expected one in constant time.
func same(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
