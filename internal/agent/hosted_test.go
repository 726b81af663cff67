package agent

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/permission"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
	"github.com/skiff-ai/skiff/internal/testkit"
)

// scripted plays a hosted agent's turn: the events acphost turns the test agent's "hello"
// into, then a question.
type scripted struct {
	e      *Engine
	events []link.AgentEvent
	ask    *link.AgentQuestion
	answer string
	takes  bool           // the agent takes images
	images []link.Image64 // the images of the last prompt
	prompt string         // its text
	// history is what Continue replays; continued the agent session it was asked for.
	history   []link.AgentEvent
	continued string
	turn      link.AgentPromptResult // how its turns end (end_turn when empty)
}

func (s *scripted) Sessions(context.Context, string) (link.AgentSessionList, error) {
	return link.AgentSessionList{Listed: true, Sessions: []link.AgentSessionInfo{{ID: "s-1", Title: "plan the trip"}}}, nil
}
func (s *scripted) Continue(_ context.Context, _, _, agentSession string) (link.AgentContinued, error) {
	s.continued = agentSession
	return link.AgentContinued{History: s.history}, nil
}

func (s *scripted) Open(context.Context, string, string, string) (link.AgentOpened, error) {
	return link.AgentOpened{Images: s.takes}, nil
}
func (s *scripted) Cancel(context.Context, string) error { return nil }
func (s *scripted) SetOption(_ context.Context, _, option, value string) ([]link.ConfigOption, error) {
	return []link.ConfigOption{{ID: option, Current: value}}, nil
}
func (s *scripted) Prompt(ctx context.Context, chat, text string, images []link.Image64) (link.AgentPromptResult, error) {
	s.images, s.prompt = images, text
	for _, ev := range s.events {
		ev.Session = chat
		s.e.Event(ev)
	}
	if s.ask != nil {
		q := *s.ask
		q.Session = chat
		a, err := s.e.AskHosted(ctx, q)
		if err != nil {
			return link.AgentPromptResult{}, err
		}
		s.answer = a
	}
	t := s.turn
	if t.StopReason == "" {
		t.StopReason = "end_turn"
	}
	return t, nil
}

// hostedEngine is an engine whose chats go to the hosted agent "test".
func hostedEngine(t *testing.T) (*Engine, *store.Store) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, store.NewMemKV())
	require.NoError(t, err)
	s, err := st.Settings(ctx)
	require.NoError(t, err)
	s.Provider = "acp:test"
	require.NoError(t, st.SaveSettings(ctx, s))
	return New(st, testkit.Doer{}), st
}

// A hosted agent's turn becomes the chat's messages: thoughts and text in replies, the plan
// in its card, tool calls as tool messages keyed by id (updated in place), the title and
// commands on the session; its question is a tool message that asks through the gate.
func TestHostedTurnBecomesTheChat(t *testing.T) {
	ctx := context.Background()
	e, st := hostedEngine(t)
	g := &permission.Gate{Policies: st, Timeout: func(context.Context) time.Duration { return 5 * time.Second }}
	e.Gate = g
	h := &scripted{e: e, events: []link.AgentEvent{
		{Kind: "commands", Commands: []link.Command{{Name: "hello"}}},
		{Kind: "thought", Text: "The user greets me."},
		{Kind: "plan", Plan: []link.PlanItem{{Content: "Answer", Status: "in_progress"}}},
		{Kind: "tool", Tool: &link.ToolCard{ID: "t1", Title: "Reading notes.md", Kind: "read", Status: "pending", Locations: []string{"notes.md"}}},
		{Kind: "tool", Tool: &link.ToolCard{ID: "t1", Update: true, Status: "completed", Preview: "one\ntwo"}},
		{Kind: "usage", Usage: &link.Usage{Used: 1200, Size: 200000, Cost: &link.Cost{Amount: 0.0123, Currency: "USD"}}},
		{Kind: "info", Text: "Greetings"},
		{Kind: "text", Text: "Hello"},
		{Kind: "text", Text: " there."},
	}, ask: &link.AgentQuestion{Agent: "Test Agent", Title: "create plan.md", Kind: "write", Risk: "act",
		Diff: &link.Diff{Path: "plan.md", Unified: "+x", Added: 1}},
		turn: link.AgentPromptResult{Model: "claude-test-model", Usage: &link.TurnUsage{Input: 1150, Output: 42, CacheRead: 800, Total: 1992}}}
	e.Hosted = h
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		for {
			for _, q := range g.Questions() {
				_ = q
			}
			ses, _ := st.Sessions(ctx)
			if len(ses) > 0 {
				full, _ := st.Session(ctx, ses[0].ID)
				for _, m := range full.Messages {
					if m.Status == store.StatusAsking {
						g.Answer(m.ID, permission.AllowOnce)
						return
					}
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	var updates []Update
	require.NoError(t, e.Send(ctx, Input{Text: "hello"}, func(u Update) { updates = append(updates, u) }))
	<-answered
	assert.Equal(t, "allow_once", h.answer)
	ses, err := st.Sessions(ctx)
	require.NoError(t, err)
	full, err := st.Session(ctx, ses[0].ID)
	require.NoError(t, err)
	var shape [][2]string
	for _, m := range full.Messages {
		name := m.Content
		if m.Tool != nil {
			name = m.Tool.Name + ":" + m.Content
		}
		shape = append(shape, [2]string{m.Role + "/" + m.Status, name})
	}
	assert.Equal(t, [][2]string{
		{"user/", "hello"},
		{"assistant/", ""}, // the thought
		{"assistant/", ""}, // the plan
		{"tool/", "agent_read:one\ntwo"},
		{"assistant/", "Hello there."},
		{"tool/", "agent_write:Allowed."},
	}, shape)
	assert.Equal(t, "The user greets me.", full.Messages[1].Reasoning)
	assert.Equal(t, []link.PlanItem{{Content: "Answer", Status: "in_progress"}}, full.Messages[2].Plan)
	assert.Equal(t, []string{"notes.md"}, full.Messages[3].Tool.Locations)
	assert.Equal(t, "Test Agent", full.Messages[5].Tool.Who)
	assert.Equal(t, "Greetings", full.Title)
	assert.Equal(t, store.Commands{{Name: "hello"}}, full.Commands)
	assert.Equal(t, "acp:test", full.Provider)
	assert.Equal(t, UpdateDone, updates[len(updates)-1].Type)
	// What the turn counted goes with its last reply (its Details), with the context window
	// and the cost so far the agent told of.
	reply := full.Messages[4]
	assert.Equal(t, &provider.Usage{Input: 1150, Output: 42, CacheRead: 800, Total: 1992}, reply.Usage)
	assert.Equal(t, "claude-test-model", reply.Model)
	assert.Positive(t, reply.FirstMs)
	assert.GreaterOrEqual(t, reply.DoneMs, reply.FirstMs)
	assert.Equal(t, &link.Usage{Used: 1200, Size: 200000, Cost: &link.Cost{Amount: 0.0123, Currency: "USD"}}, reply.AgentUse)
}

// A turn whose agent names no model (Claude's agent, with a model server of its own) gives its
// reply the model the chat's picker shows; a usage update without a cost keeps the one told
// before it.
func TestHostedReplyNamesThePickedModel(t *testing.T) {
	ctx := context.Background()
	e, st := hostedEngine(t)
	e.Hosted = &scripted{e: e, events: []link.AgentEvent{
		{Kind: "config", Config: []link.ConfigOption{{ID: "model", Category: "model", Current: "deep-2", Values: []string{"fast-1", "deep-2"}, Labels: []string{"Fast", "Deep thinker"}}}},
		{Kind: "usage", Usage: &link.Usage{Used: 10, Size: 100, Cost: &link.Cost{Amount: 2, Currency: "EUR"}}},
		{Kind: "text", Text: "Done."},
		{Kind: "usage", Usage: &link.Usage{Used: 20, Size: 100}},
		{Kind: "plan", Plan: []link.PlanItem{{Content: "Done", Status: "completed"}}}, // after its words
	}, turn: link.AgentPromptResult{Usage: &link.TurnUsage{Input: 5, Output: 1}}}
	var sid string
	require.NoError(t, e.Send(ctx, Input{Text: "go"}, func(u Update) { sid = u.SessionID }))
	ses, err := st.Session(ctx, sid)
	require.NoError(t, err)
	reply := ses.Messages[len(ses.Messages)-2]
	require.Equal(t, "Done.", reply.Content)
	assert.Equal(t, "Deep thinker", reply.Model)
	assert.Equal(t, &link.Usage{Used: 20, Size: 100, Cost: &link.Cost{Amount: 2, Currency: "EUR"}}, reply.AgentUse)
}

// The images of the user's message go to an agent that takes images; one that does not gets
// none, and the message says they were not sent.
func TestHostedAgentGetsImagesWhenItTakesThem(t *testing.T) {
	ctx := context.Background()
	png := []byte("\x89PNG\r\n\x1a\n rest of a picture")
	for _, takes := range []bool{true, false} {
		e, st := hostedEngine(t) // one each: a turn's watcher may still read e.Hosted after it
		h := &scripted{e: e, takes: takes, events: []link.AgentEvent{{Kind: "text", Text: "Seen."}}}
		e.Hosted = h
		ids, _, err := e.SaveImages(ctx, []Attached{{Name: "a.png", Data: png}}, false, "")
		require.NoError(t, err)
		var sid string
		require.NoError(t, e.Send(ctx, Input{Text: "look", Images: ids}, func(u Update) { sid = u.SessionID }))
		ses, err := st.Session(ctx, sid)
		require.NoError(t, err)
		user := ses.Messages[0]
		if takes {
			require.Len(t, h.images, 1)
			assert.Equal(t, "image/png", h.images[0].Mime)
			assert.Nil(t, user.NoticeText)
			continue
		}
		assert.Empty(t, h.images)
		require.NotNil(t, user.NoticeText)
		assert.Equal(t, "noticeAgentNoImages", user.NoticeText.Key)
	}
}

// A file the user attaches goes to any agent as its text in the prompt, fenced as data: one that
// takes no images gets it too, and the message says nothing was left out.
func TestHostedAgentGetsAttachedFilesAsText(t *testing.T) {
	ctx := context.Background()
	e, st := hostedEngine(t)
	h := &scripted{e: e, takes: false, events: []link.AgentEvent{{Kind: "text", Text: "Read."}}}
	e.Hosted = h
	ids, _, err := e.SaveImages(ctx, []Attached{{Name: "plan.md", Mime: "text/markdown", Data: []byte("HOSTED-2b7d: ship on Friday")}}, false, "")
	require.NoError(t, err)
	var sid string
	require.NoError(t, e.Send(ctx, Input{Text: "summarise", Images: ids}, func(u Update) { sid = u.SessionID }))
	assert.Contains(t, h.prompt, "summarise")
	assert.Contains(t, h.prompt, "HOSTED-2b7d: ship on Friday")
	assert.Contains(t, h.prompt, `name="plan.md"`)
	assert.NotContains(t, h.prompt, "<document-file-", "the block's mark is the id's random part")
	assert.Empty(t, h.images)
	ses, err := st.Session(ctx, sid)
	require.NoError(t, err)
	assert.Nil(t, ses.Messages[0].NoticeText)
}

// A session of the agent's own, continued in Skiff: its replayed history becomes the new chat's
// messages (the user's words in user messages, each reply after its question, tool calls as
// cards, its commands on the chat), saved once, and the chat goes on with the same agent
// session; a session the agent could only resume says that the earlier turns stay with it.
func TestContinueAnAgentsSession(t *testing.T) {
	ctx := context.Background()
	e, st := hostedEngine(t)
	h := &scripted{e: e, history: []link.AgentEvent{
		{Kind: "user", Text: "plan "}, {Kind: "user", Text: "the trip"},
		{Kind: "text", Text: "(replayed) "}, {Kind: "text", Text: "a plan"},
		{Kind: "tool", Tool: &link.ToolCard{ID: "t1", Title: "Reading notes.md", Kind: "read", Status: "completed"}},
		{Kind: "user", Text: "and now?"},
		{Kind: "text", Text: "pack"},
		{Kind: "commands", Commands: []link.Command{{Name: "hello"}}},
		{Kind: "config", Config: []link.ConfigOption{{ID: "model", Category: "model", Current: "fast-1"}}},
	}}
	e.Hosted = h
	ses, err := e.ContinueHosted(ctx, "test", "s-1", "plan the trip")
	require.NoError(t, err)
	assert.Equal(t, "s-1", h.continued)
	full, err := st.Session(ctx, ses.ID)
	require.NoError(t, err)
	var shape []string
	for _, m := range full.Messages {
		shape = append(shape, m.Role+"/"+m.Status+":"+m.Content)
	}
	assert.Equal(t, []string{"user/:plan the trip", "assistant/:(replayed) a plan", "tool/:", "user/:and now?", "assistant/:pack"}, shape)
	assert.Equal(t, "s-1", full.AgentSession)
	assert.Equal(t, "acp:test", full.Provider)
	assert.Equal(t, "plan the trip", full.Title)
	assert.Equal(t, store.Commands{{Name: "hello"}}, full.Commands)
	assert.Len(t, full.AgentOptions, 1)
	active, err := st.Active(ctx, false)
	require.NoError(t, err)
	assert.Equal(t, ses.ID, active, "the continued chat is the one on screen")

	// It goes on like any hosted chat.
	h.events = []link.AgentEvent{{Kind: "text", Text: "you said: plan the trip"}}
	require.NoError(t, e.Send(ctx, Input{SessionID: ses.ID, Text: "recall"}, func(Update) {}))
	full, err = st.Session(ctx, ses.ID)
	require.NoError(t, err)
	assert.Equal(t, "you said: plan the trip", full.Messages[len(full.Messages)-1].Content)
	assert.Len(t, full.Messages, 7)

	h.history = []link.AgentEvent{{Kind: "config", Config: []link.ConfigOption{{ID: "model"}}}}
	ses, err = e.ContinueHosted(ctx, "test", "s-2", "")
	require.NoError(t, err)
	require.Len(t, ses.Messages, 1)
	assert.Equal(t, "noticeAgentKeeps", ses.Messages[0].NoticeText.Key)
}

// An agent skiffd hosts keeps its own record of each session on disk, where Skiff cannot drop
// it when the incognito windows close: a private chat's message is refused before it is
// stored or sent, and a private chat whose provider became such an agent afterwards is
// refused when it runs again. A kept chat still goes to the agent.
func TestHostedAgentsDoNotTakePrivateChats(t *testing.T) {
	ctx := context.Background()
	e, st := hostedEngine(t)
	h := &scripted{e: e, events: []link.AgentEvent{{Kind: "text", Text: "Hello"}}}
	e.Hosted = h
	noop := func(Update) {}

	assert.ErrorIs(t, e.Send(ctx, Input{Text: "about an incognito page", Private: true}, noop), ErrHostedPrivate)
	idx, err := st.Sessions(ctx)
	require.NoError(t, err)
	assert.Empty(t, idx, "the refused message was stored")
	assert.Empty(t, h.prompt, "the agent got the message")

	// A private chat that began with a model, then the agent chosen in Settings.
	priv := &store.Session{Header: store.Header{ID: store.PrivatePrefix + "p1", Title: "private", UpdatedAt: 1},
		Messages: []store.Message{{ID: "u1", Role: "user", Content: "private words"}, {ID: "a1", Role: "assistant", Content: "a model's reply"}}}
	require.NoError(t, st.SaveSession(ctx, priv))
	assert.ErrorIs(t, e.Send(ctx, Input{SessionID: priv.ID, Text: "and now?"}, noop), ErrHostedPrivate)
	assert.ErrorIs(t, e.Regenerate(ctx, Input{SessionID: priv.ID}, noop), ErrHostedPrivate)
	assert.Empty(t, h.prompt, "the agent got a private chat's words")
	got, err := st.Session(ctx, priv.ID)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(got.Messages), 2)
	assert.Equal(t, "a model's reply", got.Messages[1].Content, "the refusal cost the chat its reply")
	for _, m := range got.Messages {
		t.Logf("%s %s %q", m.Role, m.Status, m.Content)
	}

	require.NoError(t, e.Send(ctx, Input{Text: "a kept question"}, noop))
	assert.Equal(t, "a kept question", h.prompt)
}

// An agent's error in words of its own is made a sentence from its first letter, whatever its
// language ("échec" was cut inside its "é").
func TestAnAgentsErrorIsMadeASentenceFromItsFirstLetter(t *testing.T) {
	for in, want := range map[string]string{"échec de l'agent": "Échec de l'agent.", "quota exceeded": "Quota exceeded.", "  ": "The agent failed.",
		"\xe9chec": "\xe9chec."} {
		assert.Equal(t, want, SaidBy(errors.New(in)).English(), "%q", in)
	}
}
