package weburl

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

var corpus = []string{
	"https://example.com", "http://localhost:11434/v1", "https://user:pw@Example.COM:8443/a/b?q=1#f", "HTTPS://api.openai.com/v1",
	"http://[::1]:8080/x", "http://127.0.0.1:1234/v1/", "https://generativelanguage.googleapis.com/v1beta", "chrome://version",
	"file:///tmp/x.html", "about:blank", "example.com", "/relative", "https://", "https:///path", "http://a b.com", "https://exa\tmple.com",
	"ftp://files.example.com/pub", "https://example.com?x", "https://example.com#top", "mailto:a@b.c", "javascript:alert(1)",
	"https://xn--bcher-kva.example/", "http://example.com:/", "chrome-extension://abcdef/panel/index.html", "https://a@b@c.com/",
}

// Split never accepts what net/url refuses, and when both accept they agree on the scheme and
// the host. (Split may refuse more: percent-escapes in a host, for one.)
func checkAgainstNetURL(t *testing.T, s string) {
	p, ok := Split(s)
	if !ok {
		return
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		t.Errorf("%q: Split accepts it (%q %q), net/url does not (host %q, %v)", s, p.Scheme, p.Host, hostOf(u), err)
		return
	}
	if p.Scheme != strings.ToLower(u.Scheme) || p.Host != u.Host {
		t.Errorf("%q: Split %q %q, net/url %q %q", s, p.Scheme, p.Host, u.Scheme, u.Host)
	}
}

func hostOf(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.Host
}

func TestSplitAgreesWithNetURL(t *testing.T) {
	for _, s := range corpus {
		checkAgainstNetURL(t, s)
	}
	// Everything Skiff meets is read.
	for _, s := range []string{"https://example.com", "http://localhost:11434/v1", "https://user:pw@Example.COM:8443/a/b?q=1#f", "http://[::1]:8080/x",
		"http://127.0.0.1:1234/v1/", "chrome-extension://abcdef/panel/index.html", "http://example.com:/", "https://xn--bcher-kva.example/"} {
		if _, ok := Split(s); !ok {
			t.Errorf("%q refused", s)
		}
	}
	for _, s := range []string{"example.com", "/relative", "https://", "about:blank", "https://a b.com", "https://h:port/"} {
		if _, ok := Split(s); ok {
			t.Errorf("%q accepted", s)
		}
	}
	if got := Origin("https://user:pw@Example.COM:8443/a?b"); got != "https://Example.COM:8443" {
		t.Errorf("Origin: %q", got)
	}
	if _, ok := Web("chrome://settings"); ok {
		t.Error("chrome:// is not a web address")
	}
	if p, _ := Split("https://e.com/x?y"); !p.HasQueryOrFragment() {
		t.Error("query not seen")
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range corpus {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkAgainstNetURL(t, s) })
}

func TestLoopback(t *testing.T) {
	for _, tt := range []struct {
		host string
		want bool
	}{
		{"localhost", true}, {"LOCALHOST:11434", true}, {"127.0.0.1", true}, {"127.0.0.1:8765", true}, {"127.1.2.3:80", true},
		{"[::1]", true}, {"[::1]:8080", true}, {"::1", true},
		{"127.0.0.256", false}, {"127.0.0", false}, {"128.0.0.1", false}, {"localhost.evil.example", false},
		{"127.0.0.1.evil.example", false}, {"0x7f.0.0.1", false}, {"127.0.0.01a", false}, {"", false}, {"[::2]:80", false},
		{"example.com:11434", false}, {"10.0.0.1", false},
	} {
		assert.Equal(t, tt.want, Loopback(tt.host), tt.host)
	}
	// LoopbackHost takes a name without its port: a port is not part of a name.
	assert.False(t, LoopbackHost("127.0.0.1:80"))
	assert.True(t, LoopbackHost("::1"))
}

// A blob: URL's origin is the page's that made it, as the browser has it (the gate asks for
// that site); one made by no web page has none.
func TestBlobOrigin(t *testing.T) {
	for u, want := range map[string]string{
		"blob:https://bank.example/4a1f-77": "https://bank.example",
		"BLOB:http://127.0.0.1:8080/x":      "http://127.0.0.1:8080",
		"blob:null/4a1f":                    "",
		"blob:chrome-extension://abc/x":     "",
		"blob:":                             "",
		"https://bank.example/a":            "https://bank.example",
	} {
		if got := Origin(u); got != want {
			t.Errorf("Origin(%q) = %q, want %q", u, got, want)
		}
	}
}

func TestIPHostAndHostName(t *testing.T) {
	for h, want := range map[string]bool{"192.168.1.1": true, "127.0.0.1": true, "[::1]": true, "fe80::1": true, "256.1.1.1": false, "example.com": false, "1.2.3": false, "localhost": false, "[::g]": false} {
		if IPHost(h) != want {
			t.Errorf("IPHost(%q) = %v", h, !want)
		}
	}
	for in, want := range map[string]string{"127.0.0.1:8080": "127.0.0.1", "[::1]:8000": "[::1]", "localhost": "localhost", "example.com:443": "example.com", "[::1]": "[::1]"} {
		if got := HostName(in); got != want {
			t.Errorf("HostName(%q) = %q, want %q", in, got, want)
		}
	}
}

// checkEscapes holds Escape and Unescape to net/url's answers for s.
func checkEscapes(t *testing.T, s string) {
	if got, want := Escape(s, true), url.QueryEscape(s); got != want {
		t.Errorf("Escape(%q, query) = %q, net/url %q", s, got, want)
	}
	if got, want := Escape(s, false), url.PathEscape(s); got != want {
		t.Errorf("Escape(%q, path) = %q, net/url %q", s, got, want)
	}
	q, ok := Unescape(s, true)
	want, err := url.QueryUnescape(s)
	if ok != (err == nil) || ok && q != want {
		t.Errorf("Unescape(%q, query) = %q %v, net/url %q %v", s, q, ok, want, err)
	}
	p, ok := Unescape(s, false)
	want, err = url.PathUnescape(s)
	if ok != (err == nil) || ok && p != want {
		t.Errorf("Unescape(%q, path) = %q %v, net/url %q %v", s, p, ok, want, err)
	}
}

var escapes = []string{"", "usb cables", "câble & prise", "Chez Ana/2", "a+b=c;d,e?f#g@h:i$j~k", "100%", "%zz", "%4", "%41%c3%A9", "\x00\x7f\xff", "日本語", "a%20b+c"}

func TestEscapesAgreeWithNetURL(t *testing.T) {
	for _, s := range escapes {
		checkEscapes(t, s)
	}
}

func FuzzEscapes(f *testing.F) {
	for _, s := range escapes {
		f.Add(s)
	}
	f.Fuzz(checkEscapes)
}
