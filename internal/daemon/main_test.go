package daemon

import (
	"testing"

	"github.com/skiff-ai/skiff/internal/testkit/acpagent"
)

func TestMain(m *testing.M) { acpagent.RunTests(m) }
