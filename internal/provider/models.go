package provider

import (
	"context"
	"encoding/json"
	"io"
	"sort"
	"strings"
)

// ListModels fetches the provider's live model list. On any failure the caller should fall
// back to p.Models; the error says why the live list was not available.
func (p Provider) ListModels(ctx context.Context, d Doer, key string) ([]Model, error) {
	if p.BaseURL == "" {
		return nil, &Error{Provider: p.Name, Kind: KindNotFound, Said: sayNoBaseURL}
	}
	req := &HTTPRequest{Method: "GET", Header: map[string]string{"accept": "application/json"}}
	for k, v := range p.Header {
		req.Header[k] = v
	}
	switch p.Format {
	case FormatAnthropic:
		req.URL = p.BaseURL + "/v1/models?limit=1000"
		req.Header["x-api-key"] = key
	case FormatGoogle:
		req.URL = p.BaseURL + "/models?pageSize=1000"
		req.Header["x-goog-api-key"] = key
	default:
		req.URL = p.BaseURL + "/models"
		if key != "" {
			req.Header["authorization"] = "Bearer " + key
		}
	}
	resp, err := d.Do(ctx, req)
	if err != nil {
		return nil, AsError(p, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, AsError(p, err)
	}
	if resp.Status < 200 || resp.Status > 299 {
		return nil, ResponseError(p, resp.Status, resp.Header, body)
	}
	// One shape per family:
	//   OpenAI-compatible, Anthropic: {"data":[{"id","display_name"?,"context_length"?}]}
	//   Google:                       {"models":[{"name":"models/x","displayName","inputTokenLimit","supportedGenerationMethods"}]}
	var list struct {
		Data []struct {
			ID            string `json:"id"`
			DisplayName   string `json:"display_name"`
			Name          string `json:"name"`
			ContextLength int    `json:"context_length"`
			MaxModelLen   int    `json:"max_model_len"`
		} `json:"data"`
		Models []struct {
			Name                       string   `json:"name"`
			DisplayName                string   `json:"displayName"`
			InputTokenLimit            int      `json:"inputTokenLimit"`
			SupportedGenerationMethods []string `json:"supportedGenerationMethods"`
		} `json:"models"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, &Error{Provider: p.Name, Kind: KindBadResponse, Status: resp.Status, Said: sayModelsNotJSON, Message: snippet(body)}
	}
	var out []Model
	for _, m := range list.Data {
		name := m.DisplayName
		if name == "" && m.Name != m.ID {
			name = m.Name
		}
		out = append(out, Model{ID: m.ID, Name: name, ContextLength: max(m.ContextLength, m.MaxModelLen)})
	}
	for _, m := range list.Models {
		if len(m.SupportedGenerationMethods) > 0 && !contains(m.SupportedGenerationMethods, "streamGenerateContent") &&
			!contains(m.SupportedGenerationMethods, "generateContent") {
			continue // embedding and other non-chat models
		}
		out = append(out, Model{ID: strings.TrimPrefix(m.Name, "models/"), Name: m.DisplayName, ContextLength: m.InputTokenLimit})
	}
	if p.Format != FormatAnthropic { // Anthropic lists newest first, which is the useful order
		sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	}
	return out, nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
