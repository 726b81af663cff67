package tool

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// now is the clock; tests set it.
var now = time.Now

func historyText(items []HistoryItem) string {
	var b strings.Builder
	for _, h := range items {
		fmt.Fprintf(&b, "- %s %q %s (visited %d times)\n", time.UnixMilli(int64(h.LastVisitTime)).UTC().Format("2006-01-02 15:04"), oneLine(h.Title), h.URL, h.VisitCount)
	}
	if b.Len() == 0 {
		return "No pages found.\n"
	}
	return b.String()
}

func historySearch(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*HistorySearchInput)
	start := in.StartTime
	if start <= 0 {
		start = now().Add(-30 * 24 * time.Hour).UnixMilli()
	}
	max := in.MaxResults
	if max <= 0 {
		max = 50
	}
	items, err := e.Browser.SearchHistory(ctx, HistoryQuery{Text: in.Text, StartMs: start, EndMs: in.EndTime, MaxResults: max})
	if err != nil {
		return nil, err
	}
	return (&Result{Text: historyText(items), Untrusted: true}).Summed(sumPages.With(len(items))), nil
}

func historyRecent(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*HistoryRecentInput)
	hours := in.Hours
	if hours <= 0 {
		hours = 24
	}
	max := in.MaxResults
	if max <= 0 {
		max = 50
	}
	to := now()
	from := to.Add(-time.Duration(hours * float64(time.Hour)))
	items, err := e.Browser.SearchHistory(ctx, HistoryQuery{StartMs: from.UnixMilli(), EndMs: to.UnixMilli(), MaxResults: max})
	if err != nil {
		return nil, err
	}
	text := fmt.Sprintf("From %s to %s UTC:\n", from.UTC().Format("2006-01-02 15:04"), to.UTC().Format("2006-01-02 15:04")) + historyText(items)
	return (&Result{Text: text, Untrusted: true}).Summed(sumPages.With(len(items))), nil
}

func historyVisits(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*URLInput)
	if strings.TrimSpace(in.URL) == "" {
		return nil, failf("say which URL")
	}
	vs, err := e.Browser.Visits(ctx, in.URL)
	if err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return (&Result{Text: fmt.Sprintf("%s is not in the history.", in.URL)}).Summed(sumVisits.With(0)), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s was visited %d times. The last visits:\n", in.URL, len(vs))
	for i := len(vs) - 1; i >= 0 && i >= len(vs)-10; i-- {
		fmt.Fprintf(&b, "- %s (%s)\n", time.UnixMilli(int64(vs[i].VisitTime)).UTC().Format("2006-01-02 15:04"), vs[i].Transition)
	}
	return (&Result{Text: b.String()}).Summed(sumVisits.With(len(vs))), nil
}

func historyDeleteURL(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*URLInput)
	if strings.TrimSpace(in.URL) == "" {
		return nil, failf("say which URL")
	}
	vs, err := e.Browser.Visits(ctx, in.URL)
	if err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return nil, failf("%s is not in the history", in.URL)
	}
	if err := e.Browser.DeleteURL(ctx, in.URL); err != nil {
		return nil, err
	}
	return &Result{Text: fmt.Sprintf("Deleted %d visits of %s from the history.", len(vs), in.URL), Summary: in.URL}, nil
}

func historyDeleteRange(ctx context.Context, e *Env, arg any, f *Effect) (*Result, error) {
	in := arg.(*HistoryRangeInput)
	if in.StartTime <= 0 || in.EndTime <= in.StartTime {
		return nil, failf("startTime must be before endTime (both in milliseconds since 1970)")
	}
	items, err := e.Browser.SearchHistory(ctx, HistoryQuery{StartMs: in.StartTime, EndMs: in.EndTime, MaxResults: 10000})
	if err != nil {
		return nil, err
	}
	if err := e.Browser.DeleteRange(ctx, in.StartTime, in.EndTime); err != nil {
		return nil, err
	}
	from, to := time.UnixMilli(in.StartTime).UTC().Format(time.RFC3339), time.UnixMilli(in.EndTime).UTC().Format(time.RFC3339)
	return (&Result{Text: fmt.Sprintf("Deleted the history from %s to %s (%s).", from, to, plural(len(items), "page"))}).Summed(sumPages.With(len(items))), nil
}
