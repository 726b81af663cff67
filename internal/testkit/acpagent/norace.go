//go:build !race

package acpagent

const raceOn = false
