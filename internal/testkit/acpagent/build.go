package acpagent

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	built     string
	buildErr  error
)

// Build compiles the test agent once per test process and returns its path.
func Build(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "skiff-test-agent")
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "skiff-test-agent")
		out, err := exec.Command("go", "build", "-o", built, "github.com/skiff-ai/skiff/internal/testkit/acpagent/cmd/skiff-test-agent").CombinedOutput()
		if err != nil {
			buildErr = &buildError{err, string(out)}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }
