package tool

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/weburl"
)

// DownloadWait bounds how long an action's result waits for a download the action set off to
// finish: a small file is there at once; a large one is said to be under way.
var DownloadWait = 5 * time.Second

// downloaded says what came of the downloads the page of tab began since since: each one's
// name, size and where it was saved once it finished (waited for up to DownloadWait), still
// under way, waiting on the user, held as harmful, or failed and why. A download names the
// page that led to it, and those of other sites (another tab's, the user's own) are not said;
// one with no page behind it (an address typed, or navigate) is. Each is said once per Env.
// One that began before cut was an earlier action's, set off after its result came back (a
// script that saves what a slow server sent): it is said as that action's.
func (e *Env) downloaded(ctx context.Context, tab Tab, since, cut time.Time) string {
	var out strings.Builder
	for _, d := range e.Browser.DownloadsSince(since) {
		earlier := d.At.Before(cut)
		if d.Referrer != "" && weburl.Origin(d.Referrer) != weburl.Origin(tab.URL) || !e.sayOnce(d.ID) {
			continue
		}
		end := time.Now().Add(DownloadWait)
		for {
			now, err := e.Browser.Download(unpinned(ctx), d.ID)
			if err != nil {
				break
			}
			d = now
			if d.State != "in_progress" || !time.Now().Before(end) {
				break
			}
			select {
			case <-ctx.Done():
				return out.String()
			case <-time.After(100 * time.Millisecond):
			}
		}
		said := d.says()
		switch {
		case earlier && strings.HasPrefix(said, " Its "):
			said = " An earlier action's " + said[len(" Its "):]
		case earlier && strings.HasPrefix(said, " It "):
			said = " An earlier action " + said[len(" It "):]
		}
		out.WriteString(said)
	}
	return out.String()
}

// downloadsFrom is when the downloads an action's result says began: since the previous
// action's watch, so that one set off after that result came back is said now (two minutes
// back at most); began is this action's.
func (e *Env) downloadsFrom(began time.Time) time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	from := began
	if !e.lastWatch.IsZero() && e.lastWatch.Before(began) && began.Sub(e.lastWatch) < 2*time.Minute {
		from = e.lastWatch
	}
	e.lastWatch = began
	return from
}

// tabDownload watches a tab an action opened (a link to a new tab) until it shows a page (its
// main frame committed one), for 1.5 s at most: when a download began instead (the browser
// then closes the tab), it is what the action did, and this says it ("" for a page).
func (e *Env) tabDownload(ctx context.Context, before Tab, opened int, since time.Time) string {
	for end := time.Now().Add(1500 * time.Millisecond); ; {
		if len(e.Browser.DownloadsSince(since)) > 0 {
			return e.downloaded(ctx, before, since, since)
		}
		// (A tab opened at an address reports it, loaded, before anything came.)
		if e.Browser.CommittedSince(opened, since) || !time.Now().Before(end) {
			return ""
		}
		select {
		case <-ctx.Done():
			return ""
		case <-time.After(30 * time.Millisecond):
		}
	}
}

// sayOnce reports whether download id has not been said by this Env yet, and marks it said.
func (e *Env) sayOnce(id int) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.loads == nil {
		e.loads = map[int]bool{}
	}
	if e.loads[id] {
		return false
	}
	e.loads[id] = true
	return true
}

// says is the download as a sentence of a result, with a space before it.
func (d Download) says() string {
	name := filepath.Base(d.Filename)
	if d.Filename == "" {
		name = path.Base(strings.SplitN(strings.SplitN(d.URL, "?", 2)[0], "#", 2)[0])
		if name == "" || name == "." || name == "/" || strings.Contains(name, ":") || strings.HasPrefix(d.URL, "blob:") || strings.HasPrefix(d.URL, "data:") {
			name = "a file" // a page's own data has no name until it is saved
		}
	}
	name = "“" + clip(name, 120) + "”"
	var s string
	switch {
	case d.State == "complete":
		s = fmt.Sprintf(" It downloaded %s (%s), saved as %s.", name, bytesSaid(d.Received), d.Filename)
	case d.State == "interrupted":
		s = fmt.Sprintf(" Its download of %s failed: %s.", name, interrupted(d.Error))
	case d.Filename == "":
		s = fmt.Sprintf(" It began a download of %s; the browser is asking the user where to save it.", name)
	case d.Total > 0:
		s = fmt.Sprintf(" It is downloading %s (%s of %s so far) to %s; it goes on in the background.", name, bytesSaid(d.Received), bytesSaid(d.Total), d.Filename)
	default:
		s = fmt.Sprintf(" It is downloading %s (%s so far) to %s; it goes on in the background.", name, bytesSaid(d.Received), d.Filename)
	}
	if d.Danger != "" && d.Danger != "safe" && d.Danger != "accepted" && d.State != "interrupted" {
		s += " Chrome holds it as possibly harmful until the user chooses to keep it."
	}
	return s
}

// bytesSaid is a size as a person reads it.
func bytesSaid(n int64) string {
	switch {
	case n < 1000:
		return plural(int(n), "byte")
	case n < 1e6:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	case n < 1e9:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}

// interrupted says why a download stopped (chrome.downloads.InterruptReason).
func interrupted(reason string) string {
	switch reason {
	case "SERVER_BAD_CONTENT":
		return "the server has no such file"
	case "SERVER_UNAUTHORIZED":
		return "the server asks to sign in first"
	case "SERVER_FORBIDDEN":
		return "the server refused it"
	case "SERVER_FAILED", "SERVER_NO_RANGE", "SERVER_CONTENT_LENGTH_MISMATCH", "SERVER_UNREACHABLE":
		return "the server failed to send it"
	case "SERVER_CERT_PROBLEM":
		return "the server's certificate is not valid"
	case "NETWORK_FAILED", "NETWORK_DISCONNECTED", "NETWORK_SERVER_DOWN":
		return "the network failed"
	case "NETWORK_TIMEOUT":
		return "the network timed out"
	case "NETWORK_INVALID_REQUEST":
		return "the address is not one the browser can download from"
	case "FILE_ACCESS_DENIED":
		return "the browser may not write to the downloads folder"
	case "FILE_NO_SPACE":
		return "the disk is full"
	case "FILE_NAME_TOO_LONG":
		return "its name is too long for the disk"
	case "FILE_TOO_LARGE":
		return "it is too large for the disk"
	case "FILE_VIRUS_INFECTED":
		return "it was found to hold a virus"
	case "FILE_BLOCKED", "FILE_SECURITY_CHECK_FAILED", "FILE_TOO_SHORT", "FILE_HASH_MISMATCH", "FILE_SAME_AS_SOURCE":
		return "the browser blocked it"
	case "FILE_FAILED", "FILE_TRANSIENT_ERROR":
		return "the file could not be written"
	case "USER_CANCELED":
		return "it was cancelled"
	case "USER_SHUTDOWN", "CRASH":
		return "the browser closed"
	}
	if reason == "" {
		return "the browser did not say why"
	}
	return strings.ToLower(strings.ReplaceAll(reason, "_", " "))
}
