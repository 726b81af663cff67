package core

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// core.wasm is paid for on every wake of the worker: what the standard library brings in with
// net/url (net/netip, unique), regexp, net/http, html or crypto would add tens to hundreds of
// KB. weburl and the hand-written scanners stand in for them; this keeps it so.
func TestCoreWasmLeavesOutHeavyPackages(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./wasm")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	require.NoError(t, err)
	for _, p := range strings.Fields(string(out)) {
		for _, heavy := range []string{"net", "regexp", "unique", "html", "text/template", "crypto"} {
			if p == heavy || strings.HasPrefix(p, heavy+"/") {
				t.Errorf("core.wasm imports %s", p)
			}
		}
	}
}
