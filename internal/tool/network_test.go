package tool

import (
	"testing"

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
