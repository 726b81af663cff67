//go:build race

package acpagent

// raceOn: the tests run with the race detector, and the test agent is built with it too.
const raceOn = true
