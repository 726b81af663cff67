// Package weburl reads the parts of web addresses Skiff needs (scheme, host, origin) without
// net/url, which would bring net/netip, unique and internal/godebug into core.wasm (about
// 130 KB, paid on every wake of the worker). A differential test and a fuzz target hold it to
// net/url's answers on every address both accept.
package weburl

import "strings"

// Parts is an absolute URL cut into its parts; Rest is the path, query and fragment.
type Parts struct {
	Scheme string // lowercased
	Host   string // host and port, as written (userinfo removed)
	Rest   string
}

// Split cuts an absolute URL (scheme://host/rest). It fails on relative references, an empty
// host, and whitespace or control characters anywhere.
func Split(u string) (Parts, bool) {
	for i := 0; i < len(u); i++ {
		if c := u[i]; c <= ' ' || c == 0x7f {
			return Parts{}, false
		}
		if u[i] == '%' && (i+2 >= len(u) || !hex(u[i+1]) || !hex(u[i+2])) {
			return Parts{}, false // a broken percent-escape
		}
	}
	i := strings.Index(u, "://")
	if i <= 0 || !scheme(u[:i]) {
		return Parts{}, false
	}
	p := Parts{Scheme: strings.ToLower(u[:i])}
	rest := u[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	auth := rest[:end]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		if !userinfo(auth[:at]) {
			return Parts{}, false
		}
		auth = auth[at+1:]
	}
	if auth == "" || !hostChars(auth) || !port(auth) {
		return Parts{}, false
	}
	p.Host, p.Rest = auth, rest[end:]
	return p, true
}

// hostChars reports whether a host (with its port) holds only what a host name may: letters,
// digits, -._~ and the sub-delimiters, or is the IPv6 loopback.
func hostChars(h string) bool {
	if strings.HasPrefix(h, "[::1]") {
		h = h[len("[::1]"):]
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c >= 0x80:
		case strings.IndexByte("-._~!$&'()*+,;=:", c) >= 0:
		default:
			return false
		}
	}
	return true
}

func hex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// userinfo reports whether s is made of the characters RFC 3986 allows before the @.
func userinfo(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-._:~!$&'()*+,;=@", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// port reports whether host's port, if it has one, is digits (or empty). Of IPv6 literals only
// the loopback, [::1], is read: nothing Skiff works with needs more, and checking others would
// take net/netip.
func port(host string) bool {
	if strings.HasPrefix(host, "[") {
		if !strings.HasPrefix(host, "[::1]") {
			return false
		}
		host = host[len("[::1]"):]
		if host == "" {
			return true
		}
		if host[0] != ':' {
			return false
		}
	}
	i := strings.LastIndexByte(host, ':')
	if i < 0 {
		return true
	}
	for _, c := range host[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return !strings.Contains(host[:i], ":") || strings.HasPrefix(host, "[")
}

func scheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// Web reports whether u is an absolute http or https URL.
func Web(u string) (Parts, bool) {
	p, ok := Split(u)
	return p, ok && (p.Scheme == "http" || p.Scheme == "https")
}

// Origin is scheme://host of an absolute URL, "" when u is not one. A blob: URL's is the origin
// of the page that made it (blob:https://site/id is https://site's), as browsers have it.
func Origin(u string) string {
	if len(u) > 5 && strings.EqualFold(u[:5], "blob:") {
		if p, ok := Web(u[5:]); ok {
			return p.Scheme + "://" + p.Host
		}
		return ""
	}
	p, ok := Split(u)
	if !ok {
		return ""
	}
	return p.Scheme + "://" + p.Host
}

// HasQueryOrFragment reports whether the rest of a URL has a query or a fragment.
func (p Parts) HasQueryOrFragment() bool { return strings.ContainsAny(p.Rest, "?#") }

// LoopbackHost reports whether a host name (without a port; an IPv6 literal with or without
// its brackets) names this machine's loopback interface: localhost, 127.0.0.0/8 written as
// dotted decimal, or ::1. It is the one loopback rule of the core (local model servers) and of
// skiffd (the Host and Origin it accepts).
func LoopbackHost(h string) bool {
	h = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
	if h == "localhost" || h == "::1" || h == "0:0:0:0:0:0:0:1" {
		return true
	}
	// 127.0.0.0/8 (net/netip would do, at 30 KB of core.wasm).
	return ipv4(h) && strings.HasPrefix(h, "127.")
}

// ipv4 reports whether h is an IPv4 address in dotted decimal.
func ipv4(h string) bool {
	parts := strings.Split(h, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 3 {
			return false
		}
		n := 0
		for i := 0; i < len(p); i++ {
			if p[i] < '0' || p[i] > '9' {
				return false
			}
			n = n*10 + int(p[i]-'0')
		}
		if n > 255 {
			return false
		}
	}
	return true
}

// IPHost reports whether a host name (without a port; an IPv6 literal with or without its
// brackets) is an IP address: IPv4 in dotted decimal, or IPv6.
func IPHost(h string) bool {
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	if strings.Contains(h, ":") {
		for i := 0; i < len(h); i++ {
			if c := h[i]; !(c == ':' || c == '.' || hex(c)) {
				return false
			}
		}
		return true
	}
	return ipv4(h)
}

// HostName is host without its port ("127.0.0.1:11434", "[::1]:8080", "localhost").
func HostName(host string) string {
	if strings.HasPrefix(host, "[") {
		if i := strings.IndexByte(host, ']'); i >= 0 {
			return host[:i+1]
		}
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 && strings.Count(host, ":") == 1 {
		return host[:i]
	}
	return host
}

// Loopback reports whether host, with or without a port ("127.0.0.1:11434", "[::1]:8080",
// "localhost"), is on loopback.
func Loopback(host string) bool {
	return LoopbackHost(HostName(host))
}

// Escape writes s as a query value (query) or a path segment takes it, as net/url's
// QueryEscape and PathEscape do: letters, digits and -_.~ as they are, a space as + in a
// query, $&+:=@ as they are in a path segment, every other byte %-escaped.
func Escape(s string, query bool) string {
	const digits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~", c) >= 0:
			b.WriteByte(c)
		case query && c == ' ':
			b.WriteByte('+')
		case !query && strings.IndexByte("$&+:=@", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(digits[c>>4])
			b.WriteByte(digits[c&15])
		}
	}
	return b.String()
}

// Unescape reads a query value (query: + is a space) or a path segment as net/url's
// QueryUnescape and PathUnescape do; false for a broken %-escape.
func Unescape(s string, query bool) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%':
			if i+2 >= len(s) || !hex(s[i+1]) || !hex(s[i+2]) {
				return "", false
			}
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		case c == '+' && query:
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
