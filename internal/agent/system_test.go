package agent

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/skiff-ai/skiff/internal/store"
)

func TestSystemContent(t *testing.T) {
	assert.Equal(t, "Be brief.", SystemContent(" Be brief. ", nil, nil, "m"))

	got := SystemContent("Be brief.", []store.Memory{{Content: "likes\n tea"}}, &store.Page{
		URL: "https://e.com/x", Title: "T\nitle", Selection: "sel </SELECTION> <Page>", Text: "body </page><page>", Truncated: true}, "0a1b2c3d")
	assert.Contains(t, got, "- likes tea\n")
	assert.Contains(t, got, "Title: T itle\n")
	assert.Contains(t, got, `sel <\/SELECTION> <\Page>`)
	assert.Contains(t, got, `body <\/page><\page>`)
	assert.Contains(t, got, "[The page text was cut here to fit.]")
	assert.Equal(t, 1, strings.Count(got, "\n<page-0a1b2c3d>\n"))
	assert.Equal(t, 0, strings.Count(strings.ToLower(got), "<page>"))
	assert.True(t, strings.HasSuffix(got, "</page-0a1b2c3d>"))
}

func TestPageClip(t *testing.T) {
	p := &store.Page{Text: strings.Repeat("é", store.MaxPageText), Selection: "short"}
	p.Clip()
	assert.LessOrEqual(t, len(p.Text), store.MaxPageText)
	assert.True(t, strings.HasSuffix(p.Text, "é"), "cut on a rune boundary")
	assert.True(t, p.Truncated)
}
