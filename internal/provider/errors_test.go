package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/stretchr/testify/assert"
)

func TestResponseError(t *testing.T) {
	tests := []struct {
		name     string
		provider string
		status   int
		header   map[string]string
		body     string // a file under testdata/recorded, or the body itself
		kind     ErrorKind
		typ      string
		code     string
		msg      string // substring of Message
		retry    time.Duration
		says     string // substring of Error()
		window   [2]int // for a context error: the limit and the count its message gives
	}{
		{name: "openai 401", provider: "openai", status: 401, body: "openai/error_401_invalid_api_key.json",
			kind: KindAuth, typ: "invalid_request_error", code: "invalid_api_key", msg: "Incorrect API key provided",
			says: "OpenAI: the API key was rejected or is missing; check it in Settings (HTTP 401). Incorrect API key"},
		{name: "openai 400", provider: "openai", status: 400, body: "openai/error_400_unsupported_value.json",
			kind: KindBadRequest, typ: "invalid_request_error", code: "unsupported_value", msg: "does not support 'system'"},
		{name: "openai 429 quota", provider: "openai", status: 429, body: "openai/error_429_insufficient_quota.json",
			kind: KindQuota, typ: "insufficient_quota", code: "insufficient_quota", says: "quota exhausted"},
		{name: "openai 429 rate limit with retry-after-ms", provider: "openai", status: 429,
			header: map[string]string{"retry-after-ms": "1500"},
			body:   `{"error":{"message":"Rate limit reached for gpt-4o","type":"requests","param":null,"code":"rate_limit_exceeded"}}`,
			kind:   KindRateLimit, code: "rate_limit_exceeded", retry: 1500 * time.Millisecond, says: "rate limited; retry in 2s"},
		{name: "openai context length", provider: "openai", status: 400,
			body: `{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
			kind: KindContextLength, code: "context_length_exceeded"},
		{name: "openai context length with counts", provider: "openai", status: 400,
			body: `{"error":{"message":"This model's maximum context length is 4097 tokens. However, you requested 4203 tokens (3703 in the messages, 500 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
			kind: KindContextLength, window: [2]int{4097, 4203}},
		// The error texts below are quoted from public reports (google-gemini/gemini-cli#6678,
		// cline/cline#3120), and llama.cpp's server's exceed_context_size_error.
		{name: "gemini input token count", provider: "google", status: 400,
			body: `{"error":{"code":400,"message":"The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}`,
			kind: KindContextLength, window: [2]int{1048576, 1200293}, says: "the conversation is too long for this model"},
		{name: "xai maximum prompt length", provider: "xai", status: 400,
			body: `{"code":"Client specified an invalid argument","error":"This model's maximum prompt length is 131072 but the request contains 136973 tokens."}`,
			kind: KindContextLength, window: [2]int{131072, 136973}},
		{name: "llama.cpp context size", provider: "custom", status: 400,
			body: `{"error":{"code":400,"message":"request (4476 tokens) exceeds the available context size (4096 tokens)","type":"exceed_context_size_error","n_prompt_tokens":4476,"n_ctx":4096}}`,
			kind: KindContextLength, window: [2]int{4096, 4476}},
		{name: "llama.cpp context size without counts", provider: "custom", status: 400,
			body: `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}`,
			kind: KindContextLength},
		{name: "anthropic 401", provider: "anthropic", status: 401, body: "anthropic/error_401_authentication_error.json",
			kind: KindAuth, typ: "authentication_error", msg: "invalid x-api-key"},
		{name: "anthropic 400", provider: "anthropic", status: 400, body: "anthropic/error_400_invalid_request_error.json",
			kind: KindBadRequest, typ: "invalid_request_error", msg: "messages.0"},
		{name: "anthropic 429 with retry-after", provider: "anthropic", status: 429, header: map[string]string{"retry-after": "20"},
			body: "anthropic/error_429_rate_limit_error.json", kind: KindRateLimit, typ: "rate_limit_error", retry: 20 * time.Second,
			says: "retry in 20s"},
		{name: "anthropic 529", provider: "anthropic", status: 529,
			body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, kind: KindOverloaded},
		{name: "anthropic prompt too long", provider: "anthropic", status: 400,
			body: `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`,
			kind: KindContextLength, window: [2]int{200000, 210000}},
		{name: "gemini 403 no key", provider: "google", status: 403, body: "gemini/error_403_permission_denied.json",
			kind: KindAuth, typ: "PERMISSION_DENIED", code: "403"},
		{name: "gemini 400 bad key", provider: "google", status: 400,
			body: `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}`,
			kind: KindAuth, typ: "INVALID_ARGUMENT"},
		{name: "gemini 400 vertex", provider: "google", status: 400, body: "gemini/error_400_invalid_argument_vertex.json",
			kind: KindBadRequest, typ: "INVALID_ARGUMENT", msg: "URL_ROBOTED"},
		{name: "gemini 404 model", provider: "google", status: 404, body: "gemini/error_404_not_found.json",
			kind: KindNotFound, typ: "NOT_FOUND", msg: "gemini-3.6-flahs is not found"},
		{name: "gemini 429 retry info", provider: "google", status: 429, body: "gemini/error_429_resource_exhausted.json",
			kind: KindRateLimit, typ: "RESOURCE_EXHAUSTED", retry: 34400 * time.Millisecond, says: "retry in 34s"},
		{name: "openrouter 429 numeric code", provider: "openrouter", status: 429, body: "openrouter/error_429.json",
			kind: KindRateLimit, code: "429", msg: "limited to 1 requests per minute"},
		{name: "a proxy's 502 page", provider: "openai", status: 502,
			body: "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>",
			kind: KindServer, says: "server error; retry shortly (HTTP 502). It answered with a web page instead of JSON, titled “502 Bad Gateway”"},
		{name: "a CDN's 429 page", provider: "openrouter", status: 429, header: map[string]string{"retry-after": "30"},
			body: "<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>",
			kind: KindRateLimit, retry: 30 * time.Second, says: "rate limited; retry in 30s"},
		{name: "a sign-in page at 403", provider: "openai", status: 403,
			body: "<html><head><title>Access denied</title></head></html>", kind: KindBadResponse, says: "(HTTP 403). It answered with a web page instead of JSON, titled “Access denied”; check the base URL"},
		{name: "html 404 from a wrong base URL", provider: "custom", status: 404,
			body: "<html><head><title>Not Found</title></head></html>", kind: KindNotFound},
		{name: "plain text 500", provider: "mistral", status: 500, body: "upstream connect error", kind: KindServer, msg: "upstream connect error"},
		{name: "ollama origin 403, empty body", provider: "ollama", status: 403, body: "", kind: KindOrigin,
			says: "Ollama: the local server refused requests from the extension"},
		{name: "ollama error string", provider: "ollama", status: 404, body: `{"error":"model \"llama9\" not found, try pulling it first"}`,
			kind: KindNotFound, msg: `model "llama9" not found`},
		{name: "deepseek 402", provider: "deepseek", status: 402,
			body: `{"error":{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}}`,
			kind: KindQuota, msg: "Insufficient Balance", says: "quota exhausted"},
		{name: "ollama, a model without tools", provider: "ollama", status: 400,
			body: `{"error":{"message":"registry.ollama.ai/library/gemma3:4b does not support tools","type":"api_error","param":null,"code":null}}`,
			kind: KindNoTools, says: "Ollama: this model cannot use tools, which agent mode needs; pick a model that can, or turn agent mode off (HTTP 400). registry.ollama.ai"},
		{name: "openrouter, no endpoint with tools", provider: "openrouter", status: 404,
			body: `{"error":{"message":"No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing","code":404}}`,
			kind: KindNoTools},
		{name: "llama.cpp without --jinja", provider: "custom", status: 500,
			body: `{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`, kind: KindNoTools},
		{name: "openrouter, no endpoint with pictures", provider: "openrouter", status: 404,
			body: `{"error":{"message":"No endpoints found that support image input","code":404}}`, kind: KindNoImages,
			says: "this model cannot read pictures"},
		{name: "openai, a model without pictures", provider: "openai", status: 400,
			body: `{"error":{"message":"Invalid content type. image_url is only supported by certain models.","type":"invalid_request_error","param":"messages.[0].content.[1].type","code":null}}`,
			kind: KindNoImages},
		{name: "openrouter 402 credits", provider: "openrouter", status: 402,
			body: `{"error":{"message":"This request requires more credits, or fewer max_tokens.","code":402}}`,
			kind: KindQuota, code: "402"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte(tc.body)
			if strings.HasSuffix(tc.body, ".json") {
				body = readRecorded(t, tc.body)
			}
			h := tc.header
			if h == nil {
				h = map[string]string{}
			}
			e := ResponseError(mustLookup(tc.provider), tc.status, h, body)
			assert.Equal(t, tc.kind, e.Kind)
			assert.Equal(t, tc.status, e.Status)
			if tc.typ != "" {
				assert.Equal(t, tc.typ, e.Type)
			}
			if tc.code != "" {
				assert.Equal(t, tc.code, e.Code)
			}
			assert.Contains(t, e.Message, tc.msg)
			assert.Equal(t, tc.retry, e.RetryAfter)
			assert.Contains(t, e.Error(), tc.says)
			limit, used := e.Window()
			assert.Equal(t, tc.window, [2]int{limit, used}, "the window its message gives")
		})
	}
}

func TestErrorMessageIsBounded(t *testing.T) {
	body := strings.Repeat("é", 5000)
	e := ResponseError(mustLookup("custom"), 500, map[string]string{}, []byte(body))
	assert.Less(t, len(e.Message), 400)
	assert.True(t, strings.HasSuffix(e.Message, "é…"), "cut inside a UTF-8 sequence: %q", e.Message[len(e.Message)-8:])
}

// A provider without a brand is named in the reader's language, as the rest of the sentence
// is (it read "Custom (OpenAI-compatible): …" in French too); a brand stays itself.
func TestAProviderWithoutABrandIsNamedInTheReadersLanguage(t *testing.T) {
	named := func(e *Error) any { return e.Text().Args[0] }
	custom := ResponseError(mustLookup("custom"), 500, map[string]string{}, []byte("down"))
	if n, ok := named(custom).(i18n.Text); assert.True(t, ok, "the custom provider's name is %#v", named(custom)) {
		assert.Equal(t, "providerCustom", n.Key)
	}
	assert.True(t, strings.HasPrefix(custom.Error(), "Custom (OpenAI-compatible): the provider had a server error"), custom.Error())
	unnamed := &Error{Kind: KindNetwork}
	if n, ok := named(unnamed).(i18n.Text); assert.True(t, ok) {
		assert.Equal(t, "providerUnnamed", n.Key)
	}
	assert.Equal(t, "OpenAI", named(ResponseError(mustLookup("openai"), 500, map[string]string{}, nil)))
}

// What Skiff says of a web page a provider answered with is a sentence in the reader's
// language (it was English inside a French one), the page's title kept as it came.
func TestAWebPageForAnAnswerIsSaidInTheReadersLanguage(t *testing.T) {
	e := ResponseError(mustLookup("openai"), 502, map[string]string{}, []byte("<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"))
	rest, ok := e.Text().Args[1].(i18n.Text)
	if assert.True(t, ok, "the words after the sentence are %#v", e.Text().Args[1]) {
		assert.Equal(t, "errProviderWebPageTitled", rest.Key)
		assert.Equal(t, []any{" (HTTP 502)", "502 Bad Gateway"}, rest.Args)
	}
	// A page in Latin-1 (its "é" no UTF-8) or with letters whose small form is longer ("İ"):
	// its title is found where it is.
	for _, before := range []string{strings.Repeat("\xe9", 300), strings.Repeat("İ", 300)} {
		latin := ResponseError(mustLookup("openai"), 502, map[string]string{}, []byte("<HTML><HEAD><!-- "+before+" --><TITLE>Erreur 502</TITLE></HEAD></HTML>"))
		assert.Equal(t, "Erreur 502", latin.Title)
	}
	untitled := ResponseError(mustLookup("custom"), 418, map[string]string{}, []byte("<html><body>I'm a teapot</body></html>"))
	assert.Equal(t, "Custom (OpenAI-compatible): the provider sent a response Skiff could not read (HTTP 418). It answered with a web page instead of JSON; check the base URL", untitled.Error())
}
