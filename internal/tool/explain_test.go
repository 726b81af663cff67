package tool

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A page on this computer Chrome keeps from Skiff (the user has not allowed it file access)
// tells the model what the user can do, not that browser pages are off limits; it is still a
// restricted page to every check that asks.
func TestAFilePageSaysHowToAllowIt(t *testing.T) {
	err := fmt.Errorf("%w (Cannot access contents of url \"file:///home/u/notes.html\")", ErrNoFileAccess)
	assert.True(t, errors.Is(err, ErrRestricted))
	assert.Contains(t, explain(context.Background(), err).Error(), "Allow access to file URLs")
	assert.Contains(t, explain(context.Background(), fmt.Errorf("%w (chrome://version)", ErrRestricted)).Error(), "browser pages such as chrome://")
}

// A document a web page made (blob:) is that page's origin's, and scripted as it is; one made
// by no web page is not.
func TestBlobPagesAreScriptable(t *testing.T) {
	assert.True(t, Scriptable("blob:https://bank.example/4a1f"))
	assert.False(t, Scriptable("blob:null/4a1f"))
	assert.False(t, Scriptable("blob:chrome-extension://abc/x"))
	assert.False(t, Scriptable("blob:https://chromewebstore.google.com/x"))
}

// A PDF a page shows is read as the page's only from the page's own site: another site's
// would be asked for with the user's cookies there, and a web page's file:// one is a file of
// this computer.
func TestOnlyAPagesOwnPDFsAreRead(t *testing.T) {
	for _, c := range []struct {
		page, pdf string
		own       bool
	}{
		{"https://uni.example/week3", "https://uni.example/files/report.pdf", true},
		{"https://uni.example/week3", "https://bank.example/statement.pdf", false},
		{"https://uni.example/week3", "http://uni.example/files/report.pdf", false},
		{"https://uni.example/week3", "file:///home/me/taxes.pdf", false},
		{"file:///home/me/index.html", "file:///home/me/taxes.pdf", true},
		{"file:///home/me/index.html", "https://uni.example/files/report.pdf", false},
		{"blob:https://uni.example/4a1f", "https://uni.example/files/report.pdf", true},
	} {
		assert.Equal(t, c.own, ownPDF(c.page, c.pdf), "%s showing %s", c.page, c.pdf)
	}
}
