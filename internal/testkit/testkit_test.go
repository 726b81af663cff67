package testkit

import "testing"

func TestOllamaOriginPolicy(t *testing.T) {
	for origin, want := range map[string]bool{
		"":                               true,
		"http://localhost:3000":          true,
		"http://127.0.0.1":               true,
		"chrome-extension://abcdefghijk": false,
		"https://example.com":            false,
		"http://localhost.evil.com":      false,
	} {
		if got := OllamaAllowed(origin); got != want {
			t.Errorf("OllamaAllowed(%q) = %v, want %v", origin, got, want)
		}
	}
}
