package ascii

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLowerKeepsEachByteWhereItWas(t *testing.T) {
	for in, want := range map[string]string{
		"":                  "",
		"already small":     "already small",
		"<TITLE>Erreur":     "<title>erreur",
		"İ\u212a\xe9<HTML>": "İ\u212a\xe9<html>",
		"ÉCOLE 7:30 PM":     "École 7:30 pm", // (É is not A to Z)
	} {
		got := Lower(in)
		assert.Equal(t, want, got, "%q", in)
		assert.Len(t, got, len(in), "%q", in)
	}
}
