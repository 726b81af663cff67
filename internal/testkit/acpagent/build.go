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
	builtDir  string
	built     string
	buildErr  error
)

// Build compiles the test agent once per test process and returns its path. When the tests
// run with the race detector, so does the agent, and its first race stops it (exit status 66,
// the race report on its stderr, which the host shows as the end of its log): a race in the
// agent fails the test that drove it, as one in the tests does (a race in the agent's start
// once crashed it one time in fifteen on a busy machine, found by building it so by hand).
func Build(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "skiff-test-agent")
		if err != nil {
			buildErr = err
			return
		}
		builtDir = dir
		built = filepath.Join(dir, "skiff-test-agent")
		args := []string{"build", "-o", built}
		if raceOn {
			args = append(args, "-race")
		}
		out, err := exec.Command("go", append(args, "github.com/skiff-ai/skiff/internal/testkit/acpagent/cmd/skiff-test-agent")...).CombinedOutput()
		if err != nil {
			buildErr = &buildError{err, string(out)}
			return
		}
		if raceOn {
			// The race detector reads its options from the environment only.
			bin := built
			built = filepath.Join(dir, "skiff-test-agent-race")
			buildErr = os.WriteFile(built, []byte("#!/bin/sh\nGORACE='halt_on_error=1 exitcode=66' exec '"+bin+"' \"$@\"\n"), 0o755)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

// Cleanup removes what Build made, so that a run of the tests does not leave a binary in the
// temporary folder.
func Cleanup() {
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
}

// RunTests is the TestMain of a package whose tests build the agent: it runs them, then
// removes the agent (Cleanup).
func RunTests(m *testing.M) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }
