package permission

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOriginPatterns(t *testing.T) {
	tests := []struct {
		pattern, origin string
		score           int
		match           bool
	}{
		{"*", "https://a.com", scoreAny, true},
		{"*", "", scoreAny, true},
		{"https://*", "https://a.com", scoreScheme, true},
		{"https://*", "http://a.com", 0, false},
		{"*.example.com", "https://example.com", scoreDomain, true},
		{"*.example.com", "http://shop.example.com:8080", scoreDomain, true},
		{"*.example.com", "https://badexample.com", 0, false},
		{"*.example.com", "https://example.com.evil.net", 0, false},
		{"https://*.example.com", "https://a.b.example.com", scoreScDom, true},
		{"https://*.example.com", "http://a.example.com", 0, false},
		{"https://example.com", "https://example.com", scoreExact, true},
		{"https://example.com", "https://example.com:8443", 0, false},
		{"https://example.com", "https://www.example.com", 0, false},
		{"https://example.com", "", 0, false},
		{"example.com", "https://example.com", 0, false},
	}
	for _, tc := range tests {
		s, ok := originScore(tc.pattern, tc.origin)
		assert.Equal(t, tc.match, ok, "%s ~ %s", tc.pattern, tc.origin)
		if tc.match {
			assert.Equal(t, tc.score, s, "%s ~ %s", tc.pattern, tc.origin)
		}
	}
}

func TestToolPatterns(t *testing.T) {
	click := Request{Tool: "click", Risk: "act", Permission: "act:click"}
	for pattern, want := range map[string]int{"*": toolAny, "act:*": toolClass, "act:click": toolExact, "click": toolExact, "read:*": 0, "act:type": 0, "type": 0} {
		s, ok := toolScore(pattern, click)
		assert.Equal(t, want != 0, ok, pattern)
		assert.Equal(t, want, s, pattern)
	}
}

func TestPrecedence(t *testing.T) {
	click := Request{Tool: "click", Risk: "act", Permission: "act:click", Origin: "https://shop.example.com"}
	tests := []struct {
		name     string
		policies []Policy
		want     Verdict
		winner   int // index of the deciding policy, -1 for the default
	}{
		{"no policy: acting asks", nil, Ask, -1},
		{"one allow", []Policy{{"act:click", "https://shop.example.com", AllowAlways, 1, false}}, Allow, 0},
		{"exact origin beats domain", []Policy{{"act:*", "*.example.com", DenyAlways, 5, false}, {"act:click", "https://shop.example.com", AllowAlways, 1, false}}, Allow, 1},
		{"domain beats scheme", []Policy{{"act:click", "https://*", AllowAlways, 9, false}, {"act:*", "*.example.com", DenyAlways, 1, false}}, Deny, 1},
		{"scheme+domain beats domain", []Policy{{"*", "*.example.com", AllowAlways, 9, false}, {"*", "https://*.example.com", DenyAlways, 1, false}}, Deny, 1},
		{"origin counts before tool", []Policy{{"act:click", "*", AllowAlways, 9, false}, {"*", "https://shop.example.com", DenyAlways, 1, false}}, Deny, 1},
		{"same origin: exact tool beats class", []Policy{{"act:*", "https://shop.example.com", DenyAlways, 9, false}, {"click", "https://shop.example.com", AllowAlways, 1, false}}, Allow, 1},
		{"tie: the latest wins", []Policy{{"act:click", "https://shop.example.com", DenyAlways, 1, false}, {"act:click", "https://shop.example.com", AllowAlways, 2, false}}, Allow, 1},
		{"tie the other way", []Policy{{"act:click", "https://shop.example.com", AllowAlways, 3, false}, {"act:click", "https://shop.example.com", DenyAlways, 2, false}}, Allow, 0},
		{"other tools and sites do not match", []Policy{{"act:type", "https://shop.example.com", AllowAlways, 1, false}, {"act:click", "https://other.com", AllowAlways, 1, false}}, Ask, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := Evaluate(tc.policies, click)
			assert.Equal(t, tc.want, out.Verdict, out.Reason)
			if tc.winner < 0 {
				assert.Nil(t, out.Policy)
			} else {
				require.NotNil(t, out.Policy)
				assert.Equal(t, tc.policies[tc.winner], *out.Policy)
			}
			assert.NotEmpty(t, out.Reason)
		})
	}
}

func TestDefaults(t *testing.T) {
	site := "https://news.example"
	tests := []struct {
		name string
		r    Request
		want Verdict
	}{
		{"reading a site the first time asks", Request{Tool: "snapshot", Risk: "read", Permission: "read:snapshot", Origin: site}, Ask},
		{"reading after consent runs", Request{Tool: "snapshot", Risk: "read", Permission: "read:snapshot", Origin: site, Consented: true}, Allow},
		{"reading tabs or history asks", Request{Tool: "history_search", Risk: "read", Permission: "read:history"}, Ask},
		{"acting asks", Request{Tool: "click", Risk: "act", Permission: "act:click", Origin: site}, Ask},
		{"navigating asks", Request{Tool: "navigate", Risk: "navigate", Permission: "navigate:go", Origin: site}, Ask},
		{"destructive asks", Request{Tool: "tab_close", Risk: "destructive", Permission: "destructive:close", Origin: site, Consented: true}, Ask},
		{"closing only tabs the task opened runs", Request{Tool: "tab_close", Risk: "destructive", Permission: "destructive:close", Origin: site, OwnTabs: true}, Allow},
		{"closing its own tab outside its group still asks", Request{Tool: "tab_close", Risk: "destructive", Permission: "destructive:close", Origin: site, OwnTabs: true, Outside: "Claude Code"}, Ask},
		{"scripts ask", Request{Tool: "run_script", Risk: "script", Permission: "script:run", Origin: site, Consented: true}, Ask},
		{"a password field asks even after consent", Request{Tool: "type", Risk: "act", Permission: "act:type", Origin: site, Consented: true, Sensitive: true}, Ask},
		{"what an approved plan names runs", Request{Tool: "type", Risk: "act", Permission: "act:type", Origin: site, Planned: true, NewOrigin: true}, Allow},
		{"a planned site's page loads", Request{Tool: "navigate", Risk: "navigate", Permission: "navigate:go", Origin: site, Planned: true, NewOrigin: true}, Allow},
		{"a plan does not cover a password", Request{Tool: "type", Risk: "act", Permission: "act:type", Origin: site, Planned: true, Sensitive: true}, Ask},
		{"a plan does not cover what cannot be undone", Request{Tool: "click", Risk: "destructive", Permission: "destructive:click", Origin: site, Planned: true}, Ask},
		{"a plan does not cover scripts", Request{Tool: "run_script", Risk: "script", Permission: "script:run", Origin: site, Planned: true}, Ask},
		{"files from this computer ask, plan or not", Request{Tool: "upload_file", Risk: "act", Permission: "act:upload", Origin: site, Granted: true, Planned: true, Consented: true, Files: "cv.pdf (12.0 KB)"}, Ask},
		{"a link to another app asks", Request{Tool: "click", Risk: "act", Permission: "act:click", Origin: site, Granted: true, Planned: true, App: "mailto:a@b.example"}, Ask},
	}
	for _, tc := range tests {
		out := Evaluate(nil, tc.r)
		assert.Equal(t, tc.want, out.Verdict, tc.name+": "+out.Reason)
	}
	// Always-policies: destructive and scripts run when the user chose always for the site; a
	// password field still asks; a new origin asks unless the policy names the site.
	always := []Policy{{"destructive:close", site, AllowAlways, 1, false}, {"script:run", site, AllowAlways, 1, false}, {"act:type", site, AllowAlways, 1, false}, {"act:click", "*", AllowAlways, 1, false}}
	assert.Equal(t, Allow, Evaluate(always, Request{Tool: "tab_close", Risk: "destructive", Permission: "destructive:close", Origin: site}).Verdict)
	assert.Equal(t, Allow, Evaluate(always, Request{Tool: "run_script", Risk: "script", Permission: "script:run", Origin: site}).Verdict)
	assert.Equal(t, Ask, Evaluate(always, Request{Tool: "type", Risk: "act", Permission: "act:type", Origin: site, Sensitive: true}).Verdict)
	assert.Equal(t, Allow, Evaluate(always, Request{Tool: "click", Risk: "act", Permission: "act:click", Origin: "https://b.example"}).Verdict)
	assert.Equal(t, Ask, Evaluate(always, Request{Tool: "click", Risk: "act", Permission: "act:click", Origin: "https://b.example", NewOrigin: true}).Verdict)
	assert.Equal(t, Allow, Evaluate(always, Request{Tool: "type", Risk: "act", Permission: "act:type", Origin: site, NewOrigin: true}).Verdict, "the site is named")
	// A tab the chat opened that the user has been in since asks, and says why.
	out := Evaluate(nil, Request{Tool: "tab_close", Risk: "destructive", Permission: "destructive:close", Origin: site, TakenUp: true})
	assert.Equal(t, Ask, out.Verdict)
	assert.Contains(t, out.Reason, "you have been in it since")
	// A link to another app asks, whatever the policies say: it acts outside the browser.
	out = Evaluate(always, Request{Tool: "click", Risk: "act", Permission: "act:click", Origin: site, App: "tel:+331234"})
	assert.Equal(t, Ask, out.Verdict)
	assert.Equal(t, "it opens tel:+331234 outside the browser, which always asks", out.Reason)
	// So do files leaving the computer.
	out = Evaluate(append(always, Policy{"*", "*", AllowAlways, 2, false}), Request{Tool: "upload_file", Risk: "act", Permission: "act:upload", Origin: site, Files: "cv.pdf (12.0 KB)"})
	assert.Equal(t, Ask, out.Verdict)
	assert.Equal(t, "it sends cv.pdf (12.0 KB) from this computer to the site, which always asks", out.Reason)
	// A client's call that reaches outside its own tab group asks, whatever the policies say.
	assert.Equal(t, Ask, Evaluate(always, Request{Tool: "click", Risk: "act", Permission: "act:click", Origin: site, Outside: "cursor"}).Verdict)
	assert.Equal(t, Ask, Evaluate(nil, Request{Tool: "snapshot", Risk: "read", Permission: "read:snapshot", Origin: site, Consented: true, Outside: "cursor"}).Verdict)
	// Never beats the defaults, and beats a password field's ask.
	never := []Policy{{"read:*", site, DenyAlways, 1, false}, {"act:type", site, DenyAlways, 1, false}}
	assert.Equal(t, Deny, Evaluate(never, Request{Tool: "snapshot", Risk: "read", Permission: "read:snapshot", Origin: site, Consented: true}).Verdict)
	assert.Equal(t, Deny, Evaluate(never, Request{Tool: "type", Risk: "act", Permission: "act:type", Origin: site, Sensitive: true}).Verdict)
}

func TestNormalize(t *testing.T) {
	good := []struct{ in, tool, origin string }{
		{"tab_read:*", "read:*", "https://a.com"},
		{"tab_action:click", "act:click", "https://a.com"},
		{"tab_action:input", "act:type", "https://a.com"},
		{"click", "click", "*"},
	}
	for _, g := range good {
		p, err := Normalize(Policy{Tool: g.in, Origin: g.origin + "/", Decision: AllowAlways})
		require.NoError(t, err, g.in)
		assert.Equal(t, g.tool, p.Tool)
		assert.Equal(t, g.origin, p.Origin)
	}
	for _, bad := range []Policy{
		{Tool: "", Origin: "*", Decision: AllowAlways},
		{Tool: "fly:*", Origin: "*", Decision: AllowAlways},
		{Tool: "act:", Origin: "*", Decision: AllowAlways},
		{Tool: "act:*", Origin: "a.com", Decision: AllowAlways},
		{Tool: "act:*", Origin: "https://a.com/path", Decision: AllowAlways},
		{Tool: "act:*", Origin: "https://*a.com", Decision: AllowAlways},
		{Tool: "act:*", Origin: "*", Decision: AllowOnce},
		{Tool: "act:*", Origin: "*", Decision: "maybe"},
	} {
		_, err := Normalize(bad)
		assert.ErrorIs(t, err, ErrPattern, "%+v", bad)
	}
	assert.Equal(t, "read:*", Scope(Request{Risk: "read", Permission: "read:snapshot"}))
	assert.Equal(t, "act:click", Scope(Request{Risk: "act", Permission: "act:click"}))
}
