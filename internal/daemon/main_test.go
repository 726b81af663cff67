package daemon

import (
	"os"
	"testing"

	"github.com/skiff-ai/skiff/internal/testkit/acpagent"
)

// TestMain removes the test agent the tests built (acpagent.Build) once they ran.
func TestMain(m *testing.M) {
	code := m.Run()
	acpagent.Cleanup()
	os.Exit(code)
}
