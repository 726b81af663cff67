// skiff-test-agent is the scripted ACP agent of internal/testkit/acpagent as a program, for
// skiffd to host in tests.
package main

import "github.com/skiff-ai/skiff/internal/testkit/acpagent"

func main() { acpagent.Main() }
