package testkit

import (
	"bytes"
	"fmt"
	"html"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Site serves testdata/site (pages written for the tool tests) at /site/, with /submit, which
// records what a form sends and thanks it, and /slow?ms=N, which answers after N ms; and
// testdata/injection (pages that carry instructions for AI agents) at /injection/. Other is
// the same site on a second origin, for cross-origin frames and redirects. Evil is an
// attacker's server: it answers everything with an empty page and counts what reaches it.
type Site struct {
	URL   string
	Other string
	Evil  string

	mu     sync.Mutex
	forms  []url.Values
	evil   []string
	served map[string]bool // the /once/ files given out
}

// NewSite starts the site, its second origin and the attacker's server; they stop when the
// test ends.
func NewSite(t testing.TB) *Site {
	s := &Site{}
	main := httptest.NewServer(http.HandlerFunc(s.serve))
	other := httptest.NewServer(http.HandlerFunc(s.serve))
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.evil = append(s.evil, r.Method+" "+r.URL.String())
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><title>ok</title>"))
	}))
	t.Cleanup(main.Close)
	t.Cleanup(other.Close)
	t.Cleanup(evil.Close)
	s.URL, s.Other, s.Evil = main.URL, other.URL, evil.URL
	return s
}

// EvilHits lists the requests that reached the attacker's server ("GET /steal?…").
func (s *Site) EvilHits() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.evil...)
}

// Injection is the address of a page of testdata/injection.
func (s *Site) Injection(name string) string { return s.URL + "/injection/" + name }

// Page is the address of a page of the site.
func (s *Site) Page(name string) string { return s.URL + "/site/" + name }

// Forms returns what forms submitted, in order.
func (s *Site) Forms() []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]url.Values(nil), s.forms...)
}

func (s *Site) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/submit":
		_ = r.ParseForm()
		s.mu.Lock()
		s.forms = append(s.forms, r.PostForm)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Thank you</title><h1>Thank you</h1><p>We received %d fields.</p>`, len(r.PostForm))
		return
	case r.URL.Path == "/slow":
		var ms int
		fmt.Sscan(r.URL.Query().Get("ms"), &ms)
		select {
		case <-r.Context().Done():
			return
		case <-time.After(time.Duration(ms) * time.Millisecond):
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Slow page</title><h1>Finally here</h1><p>after %d ms</p>`, ms)
		return
	case strings.HasPrefix(r.URL.Path, "/file/"):
		// A file the browser downloads (Content-Disposition: attachment): kb kilobytes of
		// lines naming it, after ms.
		var ms, kb int
		fmt.Sscan(r.URL.Query().Get("ms"), &ms)
		fmt.Sscan(r.URL.Query().Get("kb"), &kb)
		select {
		case <-r.Context().Done():
			return
		case <-time.After(time.Duration(ms) * time.Millisecond):
		}
		name := filepath.Base(r.URL.Path)
		line := []byte("this is " + name + "\n")
		body := bytes.Repeat(line, max(1, kb*1000/len(line)))
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		_, _ = w.Write(body)
		return
	case r.URL.Path == "/login":
		// Signs the browser in: /private/ serves only to it (a cookie, as sites keep a session).
		http.SetCookie(w, &http.Cookie{Name: "skiff_session", Value: "signed-in", Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>Signed in</title><h1>Signed in</h1>`))
		return
	case strings.HasPrefix(r.URL.Path, "/once/"):
		// A file served once (a link that expires): asked again, it is gone.
		s.mu.Lock()
		if s.served == nil {
			s.served = map[string]bool{}
		}
		again := s.served[r.URL.Path]
		s.served[r.URL.Path] = true
		s.mu.Unlock()
		if again {
			http.Error(w, "this link has expired", http.StatusGone)
			return
		}
		serveFile(w, r, "attach", filepath.Base(r.URL.Path))
		return
	case strings.HasPrefix(r.URL.Path, "/attach/"), strings.HasPrefix(r.URL.Path, "/paper/"), strings.HasPrefix(r.URL.Path, "/private/"):
		// A file of testdata/attach, as a site serves a document: by its name, or (/paper/)
		// at an address that names no file, as arXiv serves its PDFs, or (/private/) only to
		// a browser signed in (/login).
		name := filepath.Base(r.URL.Path)
		if strings.HasPrefix(r.URL.Path, "/paper/") {
			name = "report.pdf"
		}
		if c, err := r.Cookie("skiff_session"); strings.HasPrefix(r.URL.Path, "/private/") && (err != nil || c.Value != "signed-in") {
			http.Error(w, "sign in first", http.StatusForbidden)
			return
		}
		serveFile(w, r, "attach", name)
		return
	case strings.HasPrefix(r.URL.Path, "/injection/"):
		name := filepath.Base(r.URL.Path)
		b, err := os.ReadFile(filepath.Join(RepoRoot(), "testdata", "injection", name))
		if err != nil || !strings.HasSuffix(name, ".html") {
			http.NotFound(w, r)
			return
		}
		b = bytes.ReplaceAll(b, []byte("{{EVIL}}"), []byte(s.Evil))
		b = bytes.ReplaceAll(b, []byte("{{OTHER}}"), []byte(s.Other))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(b)
		return
	case strings.HasPrefix(r.URL.Path, "/site/vendor/"):
		// Real libraries a page is built with (testdata/site/vendor, each as its project
		// ships it), to see Skiff on what they draw rather than on an imitation.
		serveFile(w, r, filepath.Join("site", "vendor"), filepath.Base(r.URL.Path))
		return
	case strings.HasPrefix(r.URL.Path, "/site/"):
		name := filepath.Base(r.URL.Path)
		b, err := os.ReadFile(filepath.Join(RepoRoot(), "testdata", "site", name))
		if err != nil || !strings.HasSuffix(name, ".html") {
			http.NotFound(w, r)
			return
		}
		b = bytes.ReplaceAll(b, []byte("OTHER/"), []byte(s.Other+"/"))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(b)
		return
	}
	http.Error(w, html.EscapeString(r.URL.Path)+" is not on this site", http.StatusNotFound)
}

// serveFile answers with testdata/<dir>/<name>, typed by its extension.
func serveFile(w http.ResponseWriter, r *http.Request, dir, name string) {
	b, err := os.ReadFile(filepath.Join(RepoRoot(), "testdata", dir, name))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", mime.TypeByExtension(filepath.Ext(name)))
	_, _ = w.Write(b)
}

// Pages serves the real pages of Mozilla Readability's test suite, testdata/pages and
// testdata/readability: /<name>/ is that page's source.html. The pages' own images, fonts and
// scripts from the web are refused at once by a Content-Security-Policy (there is no network
// here, and waiting for each to fail would only slow the tests down).
func Pages(t testing.TB) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.Trim(r.URL.Path, "/")
		b, err := os.ReadFile(filepath.Join(PageDir(name), "source.html"))
		if err != nil || strings.Contains(name, "/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", "default-src 'self' 'unsafe-inline'")
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// PageNames lists the pages of testdata/pages (the 44 with recorded snapshots).
func PageNames(t testing.TB) []string { return pageNames(t, "pages") }

// AllPageNames lists every Readability test page there is: testdata/pages and
// testdata/readability, 130 in all.
func AllPageNames(t testing.TB) []string {
	return append(pageNames(t, "pages"), pageNames(t, "readability")...)
}

// PageDir is the folder of the real page name, in testdata/pages or testdata/readability.
func PageDir(name string) string {
	name = filepath.Base(name)
	dir := filepath.Join(RepoRoot(), "testdata", "pages", name)
	if _, err := os.Stat(dir); err != nil {
		return filepath.Join(RepoRoot(), "testdata", "readability", name)
	}
	return dir
}

func pageNames(t testing.TB, folder string) []string {
	entries, err := os.ReadDir(filepath.Join(RepoRoot(), "testdata", folder))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}
