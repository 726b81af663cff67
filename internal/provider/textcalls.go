package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// CallsInText reads a reply that is nothing but tool calls written as text: what local models
// send when the server does not turn their calls into tool_calls (Ollama and others with
// qwen2.5-coder, llama3.1 or qwen3: the call as JSON in the content, and finish "stop"). A
// call is {"name": …, "arguments": {…}} (Qwen, Hermes), {"name": …, "parameters": {…}}
// (Llama 3.1), or {"type": "function", "function": {…}}, its arguments an object or one
// encoded as a string; calls may be in a ```json fence, in <tool_call> tags, one after the
// other or in a list. Each must name one of tools. Words may come before calls in <tool_call>
// tags (Hermes' templates write them so), and are the reply's words; anything else in the
// reply, a call that does not parse, or a tool not offered, and the reply is no calls (ok
// false): words are never run as a guess.
func CallsInText(text string, tools []Tool) (calls []ToolCall, words string, ok bool) {
	offered := map[string]bool{}
	for _, t := range tools {
		offered[t.Name] = true
	}
	s := strings.TrimSpace(text)
	if s == "" || len(offered) == 0 {
		return nil, "", false
	}
	if i := strings.Index(s, "<tool_call>"); i > 0 {
		words, s = strings.TrimSpace(s[:i]), s[i:]
	}
	if body, found := strings.CutPrefix(s, "```"); found {
		// One fence around it all, tagged json or not.
		body, found = strings.CutSuffix(body, "```")
		if !found {
			return nil, "", false
		}
		if nl := strings.IndexByte(body, '\n'); nl >= 0 && !strings.ContainsAny(body[:nl], "{[") {
			body = body[nl+1:]
		}
		s = strings.TrimSpace(body)
	}
	if strings.HasPrefix(s, "<tool_call>") {
		var inner strings.Builder
		for s != "" {
			rest, found := strings.CutPrefix(s, "<tool_call>")
			if !found {
				return nil, "", false
			}
			call, after, found := strings.Cut(rest, "</tool_call>")
			if !found {
				return nil, "", false
			}
			inner.WriteString(call)
			inner.WriteByte('\n')
			s = strings.TrimSpace(after)
		}
		s = inner.String()
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			if errors.Is(err, io.EOF) && len(calls) > 0 {
				return calls, words, true
			}
			return nil, "", false
		}
		list, isList := v.([]any)
		if !isList {
			list = []any{v}
		}
		if len(list) == 0 {
			return nil, "", false
		}
		for _, item := range list {
			c, ok := textCall(item, offered)
			if !ok {
				return nil, "", false
			}
			c.ID = "call_text_" + strconv.Itoa(len(calls))
			calls = append(calls, c)
		}
	}
}

// textCall is one call written as a JSON value, when it is one of a tool offered.
func textCall(v any, offered map[string]bool) (ToolCall, bool) {
	obj, _ := v.(map[string]any)
	if fn, ok := obj["function"].(map[string]any); ok && len(obj) <= 3 {
		if t, _ := obj["type"].(string); t != "" && t != "function" {
			return ToolCall{}, false
		}
		obj = fn
	}
	name, _ := obj["name"].(string)
	if !offered[name] {
		return ToolCall{}, false
	}
	args, has := obj["arguments"]
	if !has {
		args, has = obj["parameters"]
	}
	for k := range obj {
		if k != "name" && k != "arguments" && k != "parameters" && k != "id" {
			return ToolCall{}, false // an object that is something else, with a name
		}
	}
	if s, isText := args.(string); isText {
		var inner any
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		if d.Decode(&inner) != nil {
			return ToolCall{}, false
		}
		args = inner
	}
	if !has || args == nil {
		args = map[string]any{}
	}
	if _, isObj := args.(map[string]any); !isObj {
		return ToolCall{}, false
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(args) != nil {
		return ToolCall{}, false
	}
	return ToolCall{Name: name, Args: json.RawMessage(bytes.TrimSpace(b.Bytes()))}, true
}
