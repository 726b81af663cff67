package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/ascii"
	"github.com/skiff-ai/skiff/internal/i18n"
)

// ErrorKind classifies a provider failure by what the user can do about it.
type ErrorKind string

const (
	KindAuth          ErrorKind = "auth"           // key missing, wrong or not allowed
	KindRateLimit     ErrorKind = "rate_limit"     // 429: wait RetryAfter and retry
	KindQuota         ErrorKind = "quota"          // out of credit: retrying will not help
	KindContextLength ErrorKind = "context_length" // conversation too long for the model
	KindBadRequest    ErrorKind = "bad_request"    // the provider rejected the request
	KindNotFound      ErrorKind = "not_found"      // unknown model or wrong base URL
	KindOverloaded    ErrorKind = "overloaded"     // provider busy (Anthropic 529, overloaded_error)
	KindServer        ErrorKind = "server"         // 5xx
	KindOrigin        ErrorKind = "origin"         // a local server refused the extension's origin
	KindNetwork       ErrorKind = "network"        // no response at all, or the connection dropped
	KindBadResponse   ErrorKind = "bad_response"   // HTML, non-JSON or unparseable data
	KindTruncated     ErrorKind = "truncated"      // the stream ended before the model finished
	KindStream        ErrorKind = "stream"         // an error event in the middle of a stream
	KindSilent        ErrorKind = "silent"         // nothing came for too long (FirstWait, SilenceWait)
	KindNoTools       ErrorKind = "no_tools"       // the model cannot call tools (an agent run offered them)
	KindNoImages      ErrorKind = "no_images"      // the model cannot read pictures
)

// Error is a provider failure the agent can inspect and the user can read.
type Error struct {
	Provider string // display name, "OpenAI"
	Kind     ErrorKind
	Status   int    // HTTP status; 0 for network errors, 200 for in-stream errors
	Type     string // provider's error type (invalid_request_error, RESOURCE_EXHAUSTED...)
	Code     string // provider's error code (invalid_api_key, tool_use_failed, 429...)
	Message  string // provider's message, verbatim
	// WebPage: it answered with a web page (a proxy's, a CDN's, a captive portal's), whose
	// title is Title ("" when it has none); Skiff says so in the user's language.
	WebPage bool
	Title   string
	// RetryAfter is the wait the provider asked for (Retry-After header or Gemini RetryInfo).
	RetryAfter time.Duration
	Waited     time.Duration // for KindSilent: how long nothing came
	Err        error         // underlying cause (network error), if any
	// Said, when set, is Skiff's own sentence for this failure, in place of its kind's (its
	// arguments: the provider, the status and the provider's words, then SaidArgs); the
	// underlying error is then not added to it (Said says what it means).
	Said     i18n.Sentence
	SaidArgs []any
}

func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string { return e.Text().English() }

// The summaries of a provider failure, one per kind: $1 is the provider, $2 what follows the
// summary (the HTTP status, the provider's own message), $3 the wait a rate limit asks for.
var (
	sayAuth          = i18n.Sentence{Key: "errProviderAuth", English: "$1: the API key was rejected or is missing; check it in Settings$2"}
	sayRateLimit     = i18n.Sentence{Key: "errProviderRateLimit", English: "$1: rate limited; wait a moment and retry$2"}
	sayRateLimitWait = i18n.Sentence{Key: "errProviderRateLimitWait", English: "$1: rate limited; retry in $3$2"}
	sayQuota         = i18n.Sentence{Key: "errProviderQuota", English: "$1: quota exhausted; check your plan and billing$2"}
	sayContext       = i18n.Sentence{Key: "errProviderContextLength", English: "$1: the conversation is too long for this model; start a new chat or pick a model with a larger context$2"}
	sayBadRequest    = i18n.Sentence{Key: "errProviderBadRequest", English: "$1: the request was rejected$2"}
	sayNotFound      = i18n.Sentence{Key: "errProviderNotFound", English: "$1: not found; check the model name and base URL$2"}
	sayOverloaded    = i18n.Sentence{Key: "errProviderOverloaded", English: "$1: the provider is overloaded; retry shortly$2"}
	sayServer        = i18n.Sentence{Key: "errProviderServer", English: "$1: the provider had a server error; retry shortly$2"}
	sayOrigin        = i18n.Sentence{Key: "errProviderOrigin", English: "$1: the local server refused requests from the extension (Skiff removes the Origin header for the local servers set in Settings; for a server elsewhere, start it with OLLAMA_ORIGINS=chrome-extension://*)$2"}
	sayNetwork       = i18n.Sentence{Key: "errProviderNetwork", English: "$1: could not reach the provider; check the network and base URL$2"}
	sayBadResponse   = i18n.Sentence{Key: "errProviderBadResponse", English: "$1: the provider sent a response Skiff could not read$2"}
	sayTruncated     = i18n.Sentence{Key: "errProviderTruncated", English: "$1: the reply stopped before the model finished; the partial text is kept$2"}
	sayStream        = i18n.Sentence{Key: "errProviderStream", English: "$1: the provider reported an error mid-reply$2"}
	saySilent        = i18n.Sentence{Key: "errProviderSilent", English: "$1: nothing came for $3, so Skiff stopped waiting; what arrived is kept$2"}
	sayNoTools       = i18n.Sentence{Key: "errProviderNoTools", English: "$1: this model cannot use tools, which agent mode needs; pick a model that can, or turn agent mode off$2"}
	sayNoImages      = i18n.Sentence{Key: "errProviderNoImages", English: "$1: this model cannot read pictures; send the message without them, or pick a model that can$2"}
	sayFailed        = i18n.Sentence{Key: "errProviderFailed", English: "$1: request failed$2"}

	// Failures Skiff itself names more closely than their kind's sentence.
	sayNoKey          = i18n.Sentence{Key: "errProviderNoKey", English: "$1: no API key is set; add one in Settings$2"}
	sayNoBaseURL      = i18n.Sentence{Key: "errProviderNoBaseURL", English: "$1: no base URL is set; add one in Settings$2"}
	sayDropped        = i18n.Sentence{Key: "errProviderDropped", English: "$1: the connection dropped before the model finished; the partial text is kept$2"}
	sayEndedWithError = i18n.Sentence{Key: "errProviderEndedWithError", English: "$1: the provider ended the reply with an error, without saying which$2"}
	sayUnreadablePart = i18n.Sentence{Key: "errProviderUnreadablePart", English: "$1: the provider sent a part of its reply Skiff could not read$2"}
	sayNotAStream     = i18n.Sentence{Key: "errProviderNotAStream", English: "$1: the provider did not answer with an event stream$2"}
	sayModelsNotJSON  = i18n.Sentence{Key: "errProviderModelsNotJSON", English: "$1: the model list the provider sent is not JSON$2"}
	sayCallTooLong    = i18n.Sentence{Key: "errProviderCallTooLong", English: "$1: the model wrote a call to $3 longer than $4 MB; Skiff stopped reading it$2"}

	// What follows a failure's sentence when the provider answered with a web page ($1 its
	// status, " (HTTP 502)"; $2 the page's title).
	sayWebPage            = i18n.Sentence{Key: "errProviderWebPage", English: "$1. It answered with a web page instead of JSON"}
	sayWebPageTitled      = i18n.Sentence{Key: "errProviderWebPageTitled", English: "$1. It answered with a web page instead of JSON, titled “$2”"}
	sayWebPageCheck       = i18n.Sentence{Key: "errProviderWebPageCheck", English: "$1. It answered with a web page instead of JSON; check the base URL"}
	sayWebPageTitledCheck = i18n.Sentence{Key: "errProviderWebPageTitledCheck", English: "$1. It answered with a web page instead of JSON, titled “$2”; check the base URL"}

	// The names of providers without a brand.
	sayTheProvider = i18n.Sentence{Key: "providerUnnamed", English: "The provider"}
	sayCustom      = i18n.Sentence{Key: "providerCustom", English: "Custom (OpenAI-compatible)"}
)

// summary is the sentence for a failure of kind.
func summary(kind ErrorKind) i18n.Sentence {
	switch kind {
	case KindAuth:
		return sayAuth
	case KindRateLimit:
		return sayRateLimit
	case KindQuota:
		return sayQuota
	case KindContextLength:
		return sayContext
	case KindBadRequest:
		return sayBadRequest
	case KindNotFound:
		return sayNotFound
	case KindOverloaded:
		return sayOverloaded
	case KindServer:
		return sayServer
	case KindOrigin:
		return sayOrigin
	case KindNetwork:
		return sayNetwork
	case KindBadResponse:
		return sayBadResponse
	case KindTruncated:
		return sayTruncated
	case KindStream:
		return sayStream
	case KindSilent:
		return saySilent
	case KindNoTools:
		return sayNoTools
	case KindNoImages:
		return sayNoImages
	}
	return sayFailed
}

// Text is the failure as the user reads it: what happened and what to do, in their language,
// then the status and the provider's own words as they came.
func (e *Error) Text() i18n.Text {
	var rest strings.Builder
	if e.Status != 0 && e.Status != 200 {
		fmt.Fprintf(&rest, " (HTTP %d)", e.Status)
	}
	if e.WebPage {
		return e.say(e.webPage(rest.String()))
	}
	if e.Message != "" {
		rest.WriteString(". ")
		rest.WriteString(e.Message)
	} else if e.Err != nil && e.Said.Key == "" {
		rest.WriteString(": ")
		rest.WriteString(e.Err.Error())
	}
	return e.say(rest.String())
}

// say is the failure's sentence, with rest (the status, and the provider's words as they came,
// or Skiff's of the web page it answered with) after it.
func (e *Error) say(rest any) i18n.Text {
	if e.Said.Key != "" {
		return e.Said.With(append([]any{e.who(), rest}, e.SaidArgs...)...)
	}
	say := summary(e.Kind)
	wait := ""
	if e.Kind == KindRateLimit && e.RetryAfter > 0 {
		say, wait = sayRateLimitWait, roundDuration(e.RetryAfter)
	}
	if e.Kind == KindSilent {
		wait = roundDuration(e.Waited)
	}
	return say.With(e.who(), rest, wait)
}

func roundDuration(d time.Duration) string {
	if d < time.Second {
		return "1s"
	}
	return d.Round(time.Second).String()
}

// errorBody covers the JSON error envelopes of all three formats and their variants:
//
//	OpenAI & co.   {"error":{"message","type","param","code"}}       (OpenRouter: code is a number)
//	Anthropic      {"type":"error","error":{"type","message"},"request_id"}
//	Google         {"error":{"code":429,"message","status","details":[...]}}
//	Ollama         {"error":"message"}
type errorBody struct {
	Error   json.RawMessage `json:"error"`
	Message string          `json:"message"`
	Detail  string          `json:"detail"`
}

type errorObject struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
	Status  string          `json:"status"`
	Details []struct {
		Type       string `json:"@type"`
		RetryDelay string `json:"retryDelay"`
	} `json:"details"`
}

// parseErrorBody fills e.Type, e.Code, e.Message and a RetryInfo delay from a body.
// It reports false when the body is not a JSON error envelope.
func parseErrorBody(e *Error, body []byte) bool {
	var eb errorBody
	if err := json.Unmarshal(body, &eb); err != nil {
		return false
	}
	var obj errorObject
	switch {
	case len(eb.Error) > 0 && eb.Error[0] == '{':
		if err := json.Unmarshal(eb.Error, &obj); err != nil {
			return false
		}
	case len(eb.Error) > 0 && eb.Error[0] == '"':
		_ = json.Unmarshal(eb.Error, &obj.Message)
	case eb.Message != "":
		obj.Message = eb.Message
	case eb.Detail != "":
		obj.Message = eb.Detail
	default:
		return false
	}
	e.Message = strings.TrimSpace(obj.Message)
	e.Type = obj.Type
	if obj.Status != "" {
		e.Type = obj.Status
	}
	e.Code = strings.Trim(string(obj.Code), `"`)
	if e.Code == "null" {
		e.Code = ""
	}
	for _, d := range obj.Details {
		if strings.HasSuffix(d.Type, "RetryInfo") && d.RetryDelay != "" {
			if dur, err := time.ParseDuration(d.RetryDelay); err == nil {
				e.RetryAfter = dur
			}
		}
	}
	return true
}

// ResponseError builds the error for a non-2xx response. header keys are lowercase.
func ResponseError(p Provider, status int, header map[string]string, body []byte) *Error {
	e := &Error{Provider: p.Name, Status: status}
	body = bytes.TrimSpace(body)
	if !parseErrorBody(e, body) {
		switch {
		case looksLikeHTML(body):
			// A proxy's, a CDN's or a captive portal's page: its status says what happened.
			e.WebPage, e.Title = true, htmlTitle(body)
			switch {
			case p.Local && status == 403:
				e.Kind = KindOrigin
			case status == 404:
				e.Kind = KindNotFound
			case status == 429:
				e.Kind = KindRateLimit
			case status >= 500:
				e.Kind = KindServer
			default:
				e.Kind = KindBadResponse
			}
			e.RetryAfter = retryAfter(header)
			return e
		default:
			e.Message = snippet(body)
		}
	}
	e.RetryAfter = max(e.RetryAfter, retryAfter(header))
	e.Kind = classify(p, status, e)
	return e
}

func classify(p Provider, status int, e *Error) ErrorKind {
	if n, err := strconv.Atoi(e.Code); err == nil && n >= 400 && n < 600 && status < 400 {
		status = n // an error in a 200 body (or stream) that carries its HTTP status as its code
	}
	text := strings.ToLower(e.Type + " " + e.Code + " " + e.Message)
	switch {
	case strings.Contains(text, "insufficient_quota") || strings.Contains(text, "billing") || strings.Contains(text, "credit balance") ||
		strings.Contains(text, "insufficient balance") || strings.Contains(text, "insufficient credits") || status == 402:
		return KindQuota
	case hasAny(text, tooLong) || status == 413:
		return KindContextLength
	case strings.Contains(text, "overloaded"):
		return KindOverloaded
	case strings.Contains(text, "api key not valid") || strings.Contains(text, "api_key_invalid") ||
		strings.Contains(text, "invalid_api_key") || strings.Contains(text, "authentication_error"):
		return KindAuth
	case strings.Contains(text, "rate_limit") || strings.Contains(text, "rate limit"):
		return KindRateLimit
	case hasAny(text, noTools):
		return KindNoTools
	case hasAny(text, noImages):
		return KindNoImages
	}
	switch {
	case status == 401:
		return KindAuth
	case status == 403:
		// Ollama and LM Studio answer a disallowed Origin with a bare 403; cloud providers mean the key.
		if p.Local {
			return KindOrigin
		}
		return KindAuth
	case status == 404:
		return KindNotFound
	case status == 429:
		return KindRateLimit
	case status == 529:
		return KindOverloaded
	case status >= 500:
		return KindServer
	case status >= 400:
		return KindBadRequest
	}
	return KindBadResponse
}

// What servers say when the model cannot take the tools or the pictures it was sent: Ollama
// ("registry.ollama.ai/library/gemma3:4b does not support tools"), OpenRouter at 404 ("No
// endpoints found that support tool use", "... image input"), llama.cpp started without
// --jinja, Mistral, OpenAI's older models.
var (
	noTools = []string{"does not support tool", "support tool use", "tools param requires --jinja", "function calling is not",
		"tool calling is not supported", "tool use is not supported", "tools are not supported", "does not support function calling"}
	noImages = []string{"does not support image", "support image input", "image_url is only supported", "image input is not supported",
		"images are not supported", "vision is not supported", "unknown variant `image_url`"}
)

// tooLong are the words of the errors that say a request does not fit the model's window:
// OpenAI and the servers that copy it ("This model's maximum context length is 8192 tokens"),
// Anthropic ("prompt is too long: 210000 tokens > 200000 maximum"), Gemini ("The input token
// count (1200293) exceeds the maximum number of tokens allowed (1048576)"), xAI ("This model's
// maximum prompt length is 131072 but the request contains 136973 tokens"), llama.cpp's server
// ("request (4476 tokens) exceeds the available context size (4096 tokens)", type
// exceed_context_size_error), LM Studio ("the model is loaded with context length of only
// 4096 tokens").
var tooLong = []string{"context_length", "context length", "prompt is too long", "maximum context", "too many tokens",
	"exceeds the maximum number of tokens", "maximum prompt length", "context size", "exceed_context_size", "context window"}

// Window reads what an error that says the request did not fit tells of the model's window:
// how many tokens it takes (limit) and how many the request had (used), or zeros when it does
// not say both. The messages put them in different orders, and some add more numbers (the
// completion's share, an HTTP status), so it takes the largest number as what was used and
// the largest below it as the limit.
func (e *Error) Window() (limit, used int) {
	if e == nil || e.Kind != KindContextLength {
		return 0, 0
	}
	var nums []int
	for _, f := range strings.FieldsFunc(e.Message, func(r rune) bool { return (r < '0' || r > '9') && r != ',' }) {
		if n, err := strconv.Atoi(strings.Trim(strings.ReplaceAll(f, ",", ""), ",")); err == nil && n >= 256 {
			nums = append(nums, n)
		}
	}
	for _, n := range nums {
		used = max(used, n)
	}
	for _, n := range nums {
		if n < used {
			limit = max(limit, n)
		}
	}
	if limit == 0 {
		return 0, 0
	}
	return limit, used
}

func hasAny(s string, parts []string) bool {
	for _, p := range parts {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// retryAfter reads Retry-After (seconds or an HTTP date is not needed: providers send seconds)
// and OpenAI's retry-after-ms.
func retryAfter(h map[string]string) time.Duration {
	if v := h["retry-after-ms"]; v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	if v := h["retry-after"]; v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
			return time.Duration(s * float64(time.Second))
		}
	}
	return 0
}

// streamError builds the error for an error reported inside a 200 stream.
func streamError(p Provider, data []byte) *Error {
	e := &Error{Provider: p.Name, Status: 200, Kind: KindStream}
	if !parseErrorBody(e, data) {
		e.Message = snippet(data)
		return e
	}
	switch k := classify(p, 0, e); k {
	case KindQuota, KindContextLength, KindOverloaded, KindAuth, KindRateLimit, KindServer:
		e.Kind = k
	}
	return e
}

// badData is the error of a reply Skiff cannot read (said: what it could not read), the
// provider's bytes as they came.
func badData(p Provider, said i18n.Sentence, data []byte) *Error {
	return &Error{Provider: p.Name, Kind: KindBadResponse, Status: 200, Said: said, Message: snippet(data)}
}

// MaxCallArgs bounds the arguments of one tool call as they stream in (a server that ignores
// max_tokens, a model that loops inside a call), as sse.MaxEventSize bounds one event.
const MaxCallArgs = 1 << 20

// tooLongCall is the error of a call whose arguments passed MaxCallArgs.
func tooLongCall(p Provider, name string) *Error {
	return &Error{Provider: p.Name, Kind: KindBadResponse, Status: 200, Said: sayCallTooLong, SaidArgs: []any{name, MaxCallArgs >> 20}}
}

func truncated(p Provider) *Error {
	return &Error{Provider: p.Name, Kind: KindTruncated, Status: 200}
}

func looksLikeHTML(b []byte) bool {
	head := ascii.Lower(string(b[:min(len(b), 256)]))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html") ||
		strings.Contains(head, "<head") || strings.Contains(head, "<body")
}

func htmlTitle(b []byte) string {
	lower := ascii.Lower(string(b)) // (each byte where it was in b)
	i := strings.Index(lower, "<title>")
	j := strings.Index(lower, "</title>")
	if i >= 0 && j > i {
		return snippetString(strings.TrimSpace(string(b[i+7:j])), 80)
	}
	return ""
}

// webPage is what follows a failure's sentence when the provider answered with a web page: its
// status, and that it was a page (with its title), in the user's language; one not explained
// by its status (a sign-in page) is most often a wrong address.
func (e *Error) webPage(status string) i18n.Text {
	check := e.Kind == KindBadResponse
	switch {
	case e.Title != "" && check:
		return sayWebPageTitledCheck.With(status, e.Title)
	case e.Title != "":
		return sayWebPageTitled.With(status, e.Title)
	case check:
		return sayWebPageCheck.With(status)
	}
	return sayWebPage.With(status)
}

func snippet(b []byte) string { return snippetString(string(b), 300) }

func snippetString(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

// AsError returns err as a *Error, or wraps a foreign error as a network error.
func AsError(p Provider, err error) *Error {
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	return &Error{Provider: p.Name, Kind: KindNetwork, Err: err}
}

// who is the provider as a sentence names it: its brand, the same in every language, or words
// in the user's for one without (the custom server, or none known).
func (e *Error) who() any {
	switch e.Provider {
	case "":
		return sayTheProvider.With()
	case sayCustom.English:
		return sayCustom.With()
	}
	return e.Provider
}
