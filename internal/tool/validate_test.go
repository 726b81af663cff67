package tool

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The validator knows the keywords the schemas use; a schema that starts using another one
// (a pattern, a oneOf) must teach the validator first, or calls would pass unchecked.
func TestSchemaKeywords(t *testing.T) {
	known := map[string]bool{"type": true, "properties": true, "required": true, "items": true, "enum": true, "minimum": true,
		"maximum": true, "description": true}
	var walk func(name string, v map[string]any)
	walk = func(name string, v map[string]any) {
		for k, x := range v {
			assert.True(t, known[k], "%s uses %q, which the validator does not check", name, k)
			switch k {
			case "properties":
				for p, sub := range x.(map[string]any) {
					walk(name+"."+p, sub.(map[string]any))
				}
			case "items":
				walk(name+"[]", x.(map[string]any))
			case "enum":
				for _, e := range x.([]any) {
					_, ok := e.(string)
					assert.True(t, ok, "%s: the validator compares enums as strings", name)
				}
			}
		}
	}
	for _, tl := range All() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(tl.Schema, &m))
		walk(tl.Name, m)
	}
}

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		tool, args, wantErr string
	}{
		{"click", `{"ref":"e1"}`, ""},
		{"click", ``, ""},
		{"click", `null`, ""},
		{"click", `[]`, "the arguments must be a JSON object, not a list"},
		{"click", `{"ref":`, "the arguments are not valid JSON"},
		{"click", `{"x":"10px","y":5}`, `argument "x" should be a number, not a string`},
		{"click", `{"x":"10 20","y":5}`, `argument "x" should be a number, not a string`},
		{"click", `{"button":"left","ref":"e2","reason":"models add fields"}`, ""},
		{"type", `{"text":null}`, `argument "text" must not be null`},
		{"tab_close", `{"tabIds":"1,2"}`, `argument "tabIds" should be a list, not a string`},
		{"tab_close", `{"tabIds":"[1,2] and 3"}`, `argument "tabIds" should be a list, not a string`},
		{"fill_form", `{"fields":"{\"ref\":\"e1\"}"}`, `argument "fields[0].value" is required`},
		{"type", `{"text":"a","clear":"no"}`, `argument "clear" should be true or false, not a string`},
		{"type", `{"text":{"a":1}}`, `argument "text" should be a string, not an object`},
		{"scroll", `{"direction":"DOWNWARDS"}`, `argument "direction" must be one of`},
		{"tab_close", `{"tabIds":[1e300]}`, `argument "tabIds[0]" is not a whole number Skiff can read`},
		{"wait_for", `{"seconds":30}`, ""},
		{"wait_for", `{"seconds":30.5}`, `argument "seconds" must be at most 30, not 30.5`},
		{"wait_for", `{"timeoutMs":99}`, `argument "timeoutMs" must be at least 100, not 99`},
		{"tabs_list", `{"currentWindow":"yes"}`, `argument "currentWindow" should be true or false, not a string`},
		{"tab_close", `{"tabIds":[1,2.5]}`, `argument "tabIds[1]" should be a whole number, not 2.5`},
		{"history_delete_range", `{"startTime":1}`, `argument "endTime" is required`},
		{"snapshot", `{"maxTokens":1e400}`, `argument "maxTokens" is not a number Skiff can read`},
		{"tab_group", `{"tabIds":[1],"color":"mauve"}`, `argument "color" must be one of "grey", "blue", "red", "yellow", "green", "pink", "purple", "cyan", "orange", not "mauve"`},
	} {
		tl, ok := Lookup(tt.tool)
		require.True(t, ok)
		_, err := Check(tl, json.RawMessage(tt.args))
		if tt.wantErr == "" {
			assert.NoError(t, err, "%s %s", tt.tool, tt.args)
			continue
		}
		require.Error(t, err, "%s %s", tt.tool, tt.args)
		assert.Contains(t, err.Error(), tt.wantErr, "%s %s", tt.tool, tt.args)
		var te *Error
		assert.ErrorAs(t, err, &te, "a schema error is one the model can fix")
	}
}

// What clients and models send as another kind than the schema's, when its meaning is not in
// doubt, is read as they meant it, and the call's Args are what the tool reads: Claude Code
// sends lists, objects and true/false as their JSON in a string (claude-code#22394, #32524),
// clients and models send numbers as strings, strict mode sends null for what is left out.
func TestCheckReadsWhatWasMeant(t *testing.T) {
	for _, tt := range []struct{ tool, args, want string }{
		// Lists and objects as their JSON in a string.
		{"fill_form", `{"fields":"[{\"ref\":\"e1\",\"value\":\"Ada\"}]"}`, `{"fields":[{"ref":"e1","value":"Ada"}]}`},
		{"tab_close", `{"tabIds":" [3, 4] "}`, `{"tabIds":[3,4]}`},
		{"select_option", `{"ref":"e2","values":"[\"Red\"]"}`, `{"ref":"e2","values":["Red"]}`},
		// One item where a list goes.
		{"select_option", `{"ref":"e2","values":"Red"}`, `{"ref":"e2","values":["Red"]}`},
		{"select_option", `{"ref":"e2","values":"[draft] notes"}`, `{"ref":"e2","values":["[draft] notes"]}`},
		{"tab_close", `{"tabIds":5}`, `{"tabIds":[5]}`},
		{"tab_close", `{"tabIds":"5"}`, `{"tabIds":[5]}`},
		{"fill_form", `{"fields":{"ref":"e1","value":"Ada"}}`, `{"fields":[{"ref":"e1","value":"Ada"}]}`},
		// Numbers and true/false in strings, whole numbers written otherwise.
		{"scroll", `{"amount":"300","direction":"down"}`, `{"amount":300,"direction":"down"}`},
		{"click", `{"x":" 10.5 ","y":"2e1"}`, `{"x":10.5,"y":2e1}`},
		{"type", `{"ref":"e1","text":"hi","submit":"True","clear":"false"}`, `{"clear":false,"ref":"e1","submit":true,"text":"hi"}`},
		{"tab_switch", `{"tabId":12.0}`, `{"tabId":12}`},
		{"scroll", `{"amount":1e3}`, `{"amount":1000}`},
		// Numbers and true/false where a string goes: their text.
		{"fill_form", `{"fields":[{"ref":"e1","value":true},{"ref":"e2","value":42}]}`, `{"fields":[{"ref":"e1","value":"true"},{"ref":"e2","value":"42"}]}`},
		{"type", `{"ref":"e1","text":2024}`, `{"ref":"e1","text":"2024"}`},
		// null for what is left out (OpenAI's strict mode).
		{"click", `{"ref":"e1","selector":null,"x":null,"y":null}`, `{"ref":"e1"}`},
		// An enum's value in other letters.
		{"scroll", `{"direction":"Down"}`, `{"direction":"down"}`},
		// A field's name in another spelling (snake case, other capitals), read as the field it
		// names when it alone is spelt so and the field is not there too.
		{"click", `{"ref":"e1","tab_id":"7"}`, `{"ref":"e1","tabId":7}`},
		{"wait_for", `{"text_gone":"Loading","TimeoutMS":500}`, `{"textGone":"Loading","timeoutMs":500}`},
		{"type", `{"Text":"hi","REF":"e1"}`, `{"ref":"e1","text":"hi"}`},
		{"click", `{"ref":"e1","tabId":3,"tab_id":7}`, `{"ref":"e1","tabId":3,"tab_id":7}`},
		// Nothing to read otherwise: the same bytes.
		{"type", `{"text": "<b>&</b>",  "ref":"e1"}`, `{"text": "<b>&</b>",  "ref":"e1"}`},
		{"type", `{"ref":"e1","text":"[1,2]"}`, `{"ref":"e1","text":"[1,2]"}`},
		{"click", `{"ref":"e1","why":null}`, `{"ref":"e1","why":null}`},
	} {
		tl, ok := Lookup(tt.tool)
		require.True(t, ok)
		c, err := Check(tl, json.RawMessage(tt.args))
		require.NoError(t, err, "%s %s", tt.tool, tt.args)
		assert.Equal(t, tt.want, string(c.Args), "%s %s", tt.tool, tt.args)
	}
	// What the tool reads is the same: its input decoded from them.
	tl, _ := Lookup("fill_form")
	c, err := Check(tl, json.RawMessage(`{"fields":"[{\"ref\":\"e1\",\"value\":false}]"}`))
	require.NoError(t, err)
	in := c.in.(*FillFormInput)
	require.Len(t, in.Fields, 1)
	assert.Equal(t, "e1", in.Fields[0].Ref)
	assert.Equal(t, "false", in.Fields[0].Value)
}

func TestPerformsAndIrreversible(t *testing.T) {
	for _, tt := range []struct {
		name string
		el   Element
		want bool
	}{
		{"native button", Element{Tag: "button", Role: "button"}, true},
		{"native button with a checkbox role", Element{Tag: "button", Role: "checkbox"}, true},
		{"link", Element{Tag: "a", Role: "link"}, true},
		{"submit input", Element{Tag: "input", Type: "submit", Role: "button"}, true},
		{"checkbox input", Element{Tag: "input", Type: "checkbox", Role: "checkbox"}, false},
		{"text input", Element{Tag: "input", Type: "text", Role: "textbox"}, false},
		{"select", Element{Tag: "select", Role: "combobox"}, false},
		{"div checkbox", Element{Tag: "div", Role: "checkbox"}, false},
		{"menu item", Element{Tag: "li", Role: "menuitem"}, true},
		{"clickable div", Element{Tag: "div", Role: "generic"}, true},
	} {
		assert.Equal(t, tt.want, tt.el.Performs(), tt.name)
	}
	send := Effect{Action: "click", Activates: &Element{Tag: "input", Type: "checkbox", Role: "checkbox", Name: "Send me offers"}}
	assert.Empty(t, send.Irreversible(), "a checkbox's label is not an action")
	send.Activates = &Element{Tag: "button", Role: "button", Name: "Send"}
	assert.NotEmpty(t, send.Irreversible())
	accept := Effect{Action: "dialog", Accept: true, Activates: &Element{Role: "dialog", Tag: "dialog", Name: "Delete all 40 photos?"}}
	assert.NotEmpty(t, accept.Irreversible())
	assert.Equal(t, "accept the page's dialog that says “Delete all 40 photos?”", accept.Words())
	enter := Effect{Action: "press", Key: "Enter", Element: &Element{Ref: "e1", Role: "textbox", Name: "Nickname", Tag: "input"},
		Activates: &Element{Ref: "e3", Role: "button", Name: "Delete my account", Tag: "button"}}
	assert.Equal(t, "press Enter in textbox “Nickname” [e1] (it presses button “Delete my account” [e3])", enter.Words())
	assert.NotEmpty(t, enter.Irreversible())
	pw := Effect{Action: "type", Text: "hunter2", Element: &Element{Ref: "e4", Role: "textbox", Name: "Password", Tag: "input", Field: "password"}}
	assert.True(t, pw.Sensitive())
	assert.Equal(t, "type 7 characters into password field textbox “Password” [e4]", pw.Words())
	// A button drawn as a switch that sends no form is set by fill_form as a box is, and its
	// name counts as a click's would; one that sends its form is not a box to set.
	renew := Element{Ref: "e8", Tag: "button", Role: "switch", Name: "Auto-renew"}
	assert.True(t, renew.DrawnBox())
	erase := Effect{Action: "fill", Fields: []FieldValue{{Element: Element{Tag: "input", Role: "textbox", Name: "Note"}, Value: "x"},
		{Element: Element{Tag: "button", Role: "switch", Name: "Delete my data"}, Value: "true"}}}
	assert.NotEmpty(t, erase.Irreversible())
	erase.Fields[1].Element = renew
	assert.Empty(t, erase.Irreversible())
	assert.Equal(t, "fill textbox “Note” = “x”; switch “Auto-renew” [e8] = “true”", erase.Words())
	assert.False(t, (&Element{Tag: "button", Role: "checkbox", Submits: "https://a.example/save"}).DrawnBox())
	assert.False(t, (&Element{Tag: "div", Role: "switch"}).DrawnBox(), "a div is a field already")
	// A choice in a list is a value, whatever its words ("Bank transfer" of a payment method).
	choice := Effect{Action: "select", Element: &Element{Tag: "div", Role: "combobox", Name: "Payment"}, Values: []string{"Bank transfer"}}
	assert.Empty(t, choice.Irreversible())
	fill := Effect{Action: "fill", Fields: []FieldValue{{Element: Element{Tag: "div", Role: "combobox", Name: "Billing"}, Value: "Pay monthly"}}}
	assert.Empty(t, fill.Irreversible())
	frame := Effect{URL: "https://a.example/", Element: &Element{Origin: "https://b.example"}}
	assert.Equal(t, "https://b.example", frame.Origin())
}

// A name a model brings from elsewhere points to Skiff's tool of that name.
func TestMeantToolNames(t *testing.T) {
	for name, want := range map[string]string{
		"default_api.click": "click", "mcp__skiff__navigate": "navigate", "browser_snapshot": "snapshot",
		"browser_take_screenshot": "screenshot", "browser_navigate_back": "back", "functions.type": "type",
		"Browser_Click": "click", "click": "", "browser_fly": "", "delete_everything": "",
	} {
		assert.Equal(t, want, Meant(name), name)
	}
}

// An address without its scheme is opened as people who type it mean it: a site over https,
// a server on this computer or the local network over http.
func TestAddressesWithoutTheirScheme(t *testing.T) {
	for in, want := range map[string]string{
		"example.com":                "https://example.com",
		"docs.example.com/guide?x=1": "https://docs.example.com/guide?x=1",
		"localhost:3000":             "http://localhost:3000",
		"localhost:3000/admin":       "http://localhost:3000/admin",
		"localhost":                  "http://localhost",
		"app.localhost:5173":         "http://app.localhost:5173",
		"127.0.0.1:8080/api":         "http://127.0.0.1:8080/api",
		"192.168.1.1":                "http://192.168.1.1",
		"[::1]:8000":                 "http://[::1]:8000",
		"http://example.com":         "http://example.com",
		" https://example.com/a b ":  "",
		"not an address":             "",
		"about:blank":                "about:blank",
	} {
		got, err := checkURL(in)
		if want == "" {
			if err == nil {
				t.Errorf("%q: %q, want an error", in, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
}
