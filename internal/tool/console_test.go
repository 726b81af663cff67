package tool

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Console events as Chromium sent them to a debugger that had Runtime and Log on while a page
// logged (recorded with chromedp: testdata/console-events.json), read as DevTools prints them.
// (Code run by the debugger has no script address to say.)
func TestConsoleEventsReadAsDevToolsPrintsThem(t *testing.T) {
	b, err := os.ReadFile("testdata/console-events.json")
	require.NoError(t, err)
	var recorded []struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	require.NoError(t, json.Unmarshal(b, &recorded))
	var evs []ConsoleEvent
	for _, r := range recorded {
		evs = append(evs, ConsoleEvent{Method: r.Method, Params: r.Params})
	}
	var got []string
	for _, l := range consoleLines(evs, nil) {
		got = append(got, "["+l.Level+"] "+l.Text+" @"+l.Where)
	}
	assert.Equal(t, []string{
		`[log] user ada has 2 items {user: "ada", items: Array(2), nested: Object} @`,
		`[log] [Object] @`,
		`[warning] Error: boom @`,
		`[log] null undefined 10n -0 %c styled color:red [1, "two", Object] body @`,
		`[error] Uncaught TypeError: x is not a function @`,
	}, got)
}

// Objects logged before the debugger was on come without a preview: what the page said of
// them stands in for "Object".
func TestObjectsWithoutAPreviewReadAsThePageSaid(t *testing.T) {
	ev := ConsoleEvent{Method: "Runtime.consoleAPICalled", Params: json.RawMessage(`{"type":"error","timestamp":5,
		"args":[{"type":"string","value":"Could not save: %o (%i%%)"},{"type":"object","className":"Object","description":"Object","objectId":"7.1"},{"type":"number","value":51.7,"description":"51.7"}],
		"stackTrace":{"callFrames":[{"url":"https://shop.example/app.js","lineNumber":11,"columnNumber":4}]}}`)}
	lines := consoleLines([]ConsoleEvent{ev}, map[string]string{"7.1": `{"code":500}`})
	require.Len(t, lines, 1)
	assert.Equal(t, consoleLine{Level: "error", Text: `Could not save: {"code":500} (51%)`, Where: "https://shop.example/app.js:12:5", At: 5}, lines[0])
}

func TestConsoleSaysWhatWasAskedFor(t *testing.T) {
	lines := []consoleLine{{Level: "log", Text: "a"}, {Level: "warning", Text: "b"}, {Level: "error", Text: "c", Where: "x.js:1:1"}, {Level: "info", Text: "d"}}
	tab := Tab{Title: "Shop", URL: "https://shop.example/"}
	assert.Equal(t, "The console of \"Shop\" (https://shop.example/) since the page loaded: 4 messages (1 error, 1 warning):\n- [log] a\n- [warning] b\n- [error] c (x.js:1:1)\n- [info] d\n", consoleSays(lines, "", 0, tab))
	assert.Equal(t, "The console of \"Shop\" (https://shop.example/) since the page loaded: 4 messages (1 error, 1 warning); the 2 that are warnings or errors:\n- [warning] b\n- [error] c (x.js:1:1)\n", consoleSays(lines, "warning", 0, tab))
	assert.Equal(t, "The console of \"Shop\" (https://shop.example/) since the page loaded: 4 messages (1 error, 1 warning); the latest 1 of the 4 shown:\n- [info] d\n", consoleSays(lines, "all", 1, tab))
	assert.Equal(t, "The console of \"Shop\" (https://shop.example/) since the page loaded: 1 message; none is an error.\n", consoleSays(lines[:1], "error", 0, tab))
	assert.Equal(t, "The console of \"Shop\" (https://shop.example/) since the page loaded: 0 messages.\n", consoleSays(nil, "", 0, tab))
}
