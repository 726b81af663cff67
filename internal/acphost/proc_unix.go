//go:build unix

package acphost

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so its children go with it.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// signalGroup signals cmd's whole group; kill: SIGKILL, else SIGTERM.
func signalGroup(cmd *exec.Cmd, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

// groupAlive reports whether anything of cmd's group still runs.
func groupAlive(cmd *exec.Cmd) bool { return syscall.Kill(-cmd.Process.Pid, 0) == nil }
