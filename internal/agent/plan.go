package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/tool"
	"github.com/skiff-ai/skiff/internal/weburl"
)

// Plans: in a chat that plans first, each run starts read-only. The model reads what it needs
// and proposes a plan (propose_plan): its steps, the sites it will work on, the kinds of action
// it will take there. The plan is one card in the chat; the user approves or rejects it through
// the gate (no policy answers for them). Approved, the run gets its tools, and the plan's kinds
// of action on the plan's sites run without asking (permission.Request.Planned); a password, an
// act that cannot be undone, a script, another site or another kind of action still asks.

// ProposePlan is the tool the model proposes its plan with.
const ProposePlan = "propose_plan"

// Plan kinds: what a plan may let run without asking, and the tools each covers.
var planKinds = map[string][]string{
	"navigate": {"navigate", "tab_open", "back", "forward", "reload"},
	"fill":     {"type", "fill_form", "select_option"},
	"click":    {"click", "press_key", "hover", "drag", "scroll", "dialog"},
}

// kindOf is the plan kind a tool is ("" for none).
func kindOf(name string) string {
	for k, tools := range planKinds {
		if slices.Contains(tools, name) {
			return k
		}
	}
	return ""
}

// PlanningInstructions are added to the system prompt while a run plans.
const PlanningInstructions = `You are planning: you have only the tools that read. Read what you need (snapshot the page; do not act), then call propose_plan with the steps you will take, the sites you will work on, and the kinds of action you will take there. The user approves or rejects it; you get your other tools only once it is approved. Keep the plan to what the task needs: what it does not name still asks the user.`

// planTool is propose_plan as the model sees it.
var planTool = provider.Tool{Name: ProposePlan,
	Description: "Propose your plan to the user before you act: the steps, the sites and the kinds of action. Wait for their answer (this call returns it).",
	Schema: json.RawMessage(`{"type":"object","required":["steps","sites","kinds"],"properties":{` +
		`"steps":{"type":"array","items":{"type":"string"},"description":"The steps, in order, each a short sentence."},` +
		`"sites":{"type":"array","items":{"type":"string"},"description":"The sites the plan works on, as addresses (https://shop.example)."},` +
		`"kinds":{"type":"array","items":{"type":"string","enum":["navigate","fill","click"]},"description":"The kinds of action the plan takes on those sites: navigate (load pages), fill (type, fill forms, pick options), click (click, press keys, drag, scroll)."}}}`)}

// planningTools are the tools of a run that plans: the ones that read, and propose_plan.
func planningTools(all []provider.Tool) []provider.Tool {
	var out []provider.Tool
	for _, t := range all {
		if tl, ok := tool.Lookup(t.Name); ok && tl.Risk == tool.Read {
			out = append(out, t)
		}
	}
	return append(out, planTool)
}

// planning reports whether the run is still planning: its chat plans first, and no plan was
// approved yet in this run.
func (r *runner) planning() bool {
	return r.ses.Agent && r.ses.PlanFirst && r.ses.Plan == nil
}

// checkPlan reads a proposed plan: steps, sites as origins, known kinds.
func checkPlan(raw json.RawMessage) (*store.Plan, error) {
	var a store.Plan
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("its arguments are not {steps, sites, kinds}: %v", err)
	}
	p := &store.Plan{}
	for _, s := range a.Steps {
		if s = strings.TrimSpace(s); s != "" {
			p.Steps = append(p.Steps, s)
		}
	}
	if len(p.Steps) == 0 || len(p.Steps) > 30 {
		return nil, fmt.Errorf("a plan has 1 to 30 steps")
	}
	for _, s := range a.Sites {
		o := weburl.Origin(strings.TrimSpace(s))
		if o == "" && !strings.Contains(s, "://") {
			o = weburl.Origin("https://" + strings.TrimSpace(s))
		}
		if o == "" {
			return nil, fmt.Errorf("“%s” is not a site's address", s)
		}
		if !slices.Contains(p.Sites, o) {
			p.Sites = append(p.Sites, o)
		}
	}
	for _, k := range a.Kinds {
		k = strings.ToLower(strings.TrimSpace(k))
		if _, ok := planKinds[k]; !ok {
			return nil, fmt.Errorf("“%s” is not a kind of action a plan can name (navigate, fill, click)", k)
		}
		if !slices.Contains(p.Kinds, k) {
			p.Kinds = append(p.Kinds, k)
		}
	}
	return p, nil
}

// plan handles a call while the run plans, and propose_plan: an act is refused (the model has
// no acting tools while it plans, but a model may call one anyway); a plan is shown and waits
// for the user. It reports whether it handled the call (reads go the usual way).
func (r *runner) plan(ctx context.Context, c provider.ToolCall) bool {
	if c.Name != ProposePlan {
		if t, ok := tool.Lookup(c.Name); !ok || t.Risk == tool.Read {
			return false
		}
	}
	i := r.toolMessage(c)
	switch {
	case c.Name != ProposePlan:
		r.finish(ctx, i, store.StatusDenied, "Not run: this run plans first. Propose your plan with propose_plan; you can act once the user approves it.", true)
		return true
	case !r.planning():
		r.finish(ctx, i, store.StatusError, "There is no plan to propose now: carry out the plan the user approved, or answer them.", true)
		return true
	}
	p, err := checkPlan(c.Args)
	if err != nil {
		r.finish(ctx, i, store.StatusError, "The plan was not shown to the user: "+err.Error()+". Propose it again.", true)
		return true
	}
	r.proposed(ctx, i, p, time.Time{})
	return true
}

// proposed shows plan p (the call of message i) to the user and waits for their answer;
// askedAt, when not zero, is when it first asked (a plan a worker restart cut off while it
// waited: the user's answer reaches the gate, and the run goes on from here).
func (r *runner) proposed(ctx context.Context, i int, p *store.Plan, askedAt time.Time) {
	msg := &r.ses.Messages[i]
	msg.Tool.Args, _ = json.Marshal(p)
	var kinds i18n.List
	for _, k := range p.Kinds {
		kinds = append(kinds, kindWords[k].With()) // a plan names only planKinds (checkPlan)
	}
	what := sayPlanWhat.With(len(p.Steps), strings.Join(p.Sites, ", "), kinds)
	msg.Tool.What, msg.Tool.WhatText = what.English(), &what
	call := permission.Call{ID: msg.ID, Caller: r.task.Caller, What: msg.Tool.What, WhatText: &what, Args: msg.Tool.Args,
		Request: permission.Request{Tool: ProposePlan, Risk: permission.RiskPlan, Permission: "plan:approve"}}
	ruling, err := r.e.gate().Decide(ctx, call, askedAt, func(why i18n.Text) {
		msg.Status, msg.Tool.AskedAt = store.StatusAsking, r.e.now()
		if !askedAt.IsZero() {
			msg.Tool.AskedAt = askedAt.UnixMilli()
		}
		msg.Tool.SetAsks(why)
		if r.save(ctx) == nil {
			r.message(i)
		}
	})
	msg.Tool.Decision, msg.Tool.DecisionText = ruling.How(), said(ruling)
	switch {
	case ctx.Err() != nil:
		r.finish(ctx, i, store.StatusStopped, "The user stopped the run before answering the plan.", true)
		return
	case err != nil || !ruling.Allow:
		why := "The user rejected the plan. Ask them what to change, or propose another."
		if err != nil || !ruling.ByUser {
			why = "The plan was not approved: " + strings.TrimSuffix(or(ruling.Why, "no answer came"), ".") + "."
		}
		r.e.gate().Record(context.WithoutCancel(ctx), call, ruling, permission.ResultNotRun.With(), false) // the decision says why
		r.finish(ctx, i, store.StatusDenied, why, true)
		return
	}
	text := "The user approved the plan."
	if edit, ok := r.e.takeEdit(msg.ID); ok {
		p = narrowed(p, edit)
		msg.Tool.Args, _ = json.Marshal(p)
		text = fmt.Sprintf("The user approved the plan as they edited it. Follow this one:\nSteps:\n- %s\nSites: %s\nKinds of action that run without asking there: %s.",
			strings.Join(p.Steps, "\n- "), or(strings.Join(p.Sites, ", "), "none"), or(strings.Join(p.Kinds, ", "), "none"))
	}
	r.ses.Plan = p
	r.task.follow(p)
	r.e.gate().Record(context.WithoutCancel(ctx), call, ruling, sayApproved.With(), true)
	r.finish(ctx, i, "", text+" Carry it out now; you have all your tools. Its kinds of action on its sites run without asking; anything else (another site, another kind of action, a password, what cannot be undone) still asks.", false)
}

// EditPlan keeps the user's edit of the plan that message id proposes, for the run to take
// when their approval reaches it.
func (e *Engine) EditPlan(id string, p store.Plan) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.edits == nil {
		e.edits = map[string]store.Plan{}
	}
	e.edits[id] = p
}

func (e *Engine) takeEdit(id string) (store.Plan, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	p, ok := e.edits[id]
	delete(e.edits, id)
	return p, ok
}

// narrowed is the plan p as the user edited it: their steps (the model's when they left none),
// and only the sites and kinds of p they kept. An edit can take allowances away, never add
// them: what the model did not propose asks as it would have.
func narrowed(p *store.Plan, edit store.Plan) *store.Plan {
	out := &store.Plan{Steps: p.Steps}
	var steps []string
	for _, s := range edit.Steps {
		if s = strings.TrimSpace(s); s != "" && len(steps) < 30 {
			steps = append(steps, s)
		}
	}
	if len(steps) > 0 {
		out.Steps = steps
	}
	for _, o := range p.Sites {
		if slices.Contains(edit.Sites, o) {
			out.Sites = append(out.Sites, o)
		}
	}
	for _, k := range p.Kinds {
		if slices.Contains(edit.Kinds, k) {
			out.Kinds = append(out.Kinds, k)
		}
	}
	return out
}

// follow gives the task the plan the user approved: its sites are theirs to read and work on,
// its kinds of action there run without asking.
func (t *Task) follow(p *store.Plan) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.init()
	t.planned = p
	for _, o := range p.Sites {
		t.canRead[o] = true
	}
}
