//go:build !unix

package acphost

import "os/exec"

// ownGroup: no process groups here; the agent alone is stopped.
func ownGroup(*exec.Cmd) {}

func signalGroup(cmd *exec.Cmd, _ bool) { _ = cmd.Process.Kill() }

func groupAlive(*exec.Cmd) bool { return false }
