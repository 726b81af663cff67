package tool

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Addresses a page fetched are listed without the credentials their queries carry.
func TestRequestAddressesKeepNoCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.example/v1/orders?page=2&access_token=eyJhbGc.x.y":            "https://api.example/v1/orders?page=2&access_token=…",
		"https://maps.example/js?key=AIzaSyD-123&callback=init":                    "https://maps.example/js?key=…&callback=init",
		"https://s3.example/b/o.png?X-Amz-Signature=abc&X-Amz-Credential=AK%2F1#f": "https://s3.example/b/o.png?X-Amz-Signature=…&X-Amz-Credential=…#f",
		"https://shop.example/cb?code=4/0AX&state=xyz":                             "https://shop.example/cb?code=…&state=xyz",
		"https://shop.example/search?q=monkey&keyboard=fr":                         "https://shop.example/search?q=monkey&keyboard=fr",
		"https://shop.example/p?client_secret=s3&API-KEY=k":                        "https://shop.example/p?client_secret=…&API-KEY=…",
	} {
		assert.Equal(t, want, unsecret(in))
	}
}

// What the debugger saw of a page's requests adds to resource timing's list: the page's own
// method, each request's by when it went (the same address asked for twice told apart), a
// request that failed or is still out (said as out only while it is followed), in the order
// they went; a picture that loaded is left out unless all is asked.
func TestSeenRequestsAddMethodsAndWhatTimingMisses(t *testing.T) {
	origin := time.UnixMilli(1_000_000)
	at := func(ms int) time.Time { return origin.Add(time.Duration(ms) * time.Millisecond) }
	timed := []request{
		{URL: "https://s.example/api", Kind: "fetch", Status: 200, At: 100},
		{URL: "https://s.example/api", Kind: "fetch", Status: 201, At: 5000},
	}
	seen := []NetRequest{
		{URL: "https://s.example/form", Method: "POST", Type: "Document", Done: true, Status: 200, At: at(0)},
		{URL: "https://s.example/api", Method: "PUT", Type: "Fetch", Done: true, Status: 201, At: at(5004)},
		{URL: "https://s.example/logo.png", Method: "GET", Type: "Image", Done: true, Status: 200, At: at(5010)},
		{URL: "http://127.0.0.1:2/x", Method: "GET", Type: "Fetch", Done: true, Failed: "net::ERR_CONNECTION_REFUSED", At: at(5020)},
		{URL: "https://s.example/slow", Method: "GET", Type: "Fetch", At: at(5030)},
		{URL: "https://s.example/later", Method: "GET", Type: "XHR", At: at(9000)},
	}
	off := at(6000)
	got, page := withSeen(append([]request(nil), timed...), seen, origin, off, true, false)
	assert.Equal(t, " (POST)", page)
	var lines []string
	for _, q := range got {
		l := q.method + q.URL + " " + q.failed + q.unanswered
		if i := strings.Index(l, "(sent "); i >= 0 {
			l = l[:i+6] + "…" // how long ago moves on
		}
		lines = append(lines, l)
	}
	assert.Equal(t, []string{
		"https://s.example/api ",
		"PUT https://s.example/api ",
		"GET http://127.0.0.1:2/x net::ERR_CONNECTION_REFUSED",
		"GET https://s.example/slow no answer while Skiff followed the page's requests (its outcome is not known)",
		"GET https://s.example/later no answer yet (sent …",
	}, lines)
	got, _ = withSeen(append([]request(nil), timed...), seen, origin, off, true, true)
	assert.Len(t, got, 6, "with all, the picture too")
}
