package core

import (
	"context"
	"errors"
	"strings"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/i18n"
	"github.com/skiff-ai/skiff/internal/link"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
)

// problemf is an error whose text is written for the user: sentence s with its arguments.
func problemf(s i18n.Sentence, args ...any) error { return s.Error(args...) }

// The core's own sentences for the user (their French is in ui/_locales).
var (
	sayMemoryAdded       = i18n.Sentence{Key: "resMemoryAdded", English: "added"}
	saySavedWorkflow     = i18n.Sentence{Key: "resWorkflowSaved", English: "saved"}
	sayBusy              = i18n.Sentence{Key: "errBusy", English: "Skiff is still replying in this chat. Wait for the reply or press Stop."}
	sayEmpty             = i18n.Sentence{Key: "errEmpty", English: "Type a message first."}
	sayKeptChat          = i18n.Sentence{Key: "errKeptChat", English: "This chat is kept on this computer, so it does not take what is in an incognito window. Start a new chat there: Skiff keeps it only while an incognito window is open."}
	sayHostedPrivate     = i18n.Sentence{Key: "errHostedPrivate", English: "Agents that skiffd runs keep their own record of each chat on disk, so Skiff does not send them what is in an incognito window. Choose a model in Settings for chats here."}
	sayNothingToEdit     = i18n.Sentence{Key: "errNothingToEdit", English: "There is no message to edit in this chat."}
	sayNothingToRegen    = i18n.Sentence{Key: "errNothingToRegenerate", English: "There is no reply to regenerate in this chat."}
	sayReplayStart       = i18n.Sentence{Key: "errReplayStart", English: "This chat is a workflow's replay, which no model answered: run the workflow again from Workflows, or write a new message for the model."}
	sayNothingToContinue = i18n.Sentence{Key: "errNothingToContinue", English: "The last reply of this chat was not cut off, so there is nothing to continue."}
	sayQueueFull         = i18n.Sentence{Key: "errQueueFull", English: "Twenty messages are already waiting in this chat. Wait for the reply, or remove some from the queue."}
	sayNotQueued         = i18n.Sentence{Key: "errNotQueued", English: "That message is no longer waiting: it has been sent or removed."}
	sayQueueRunning      = i18n.Sentence{Key: "errQueueRunning", English: "Skiff is still replying in this chat; the waiting messages are sent when it finishes."}
	sayNothingQueued     = i18n.Sentence{Key: "errNothingQueued", English: "No message is waiting in this chat."}
	sayTooLong           = i18n.Sentence{Key: "errTooLong", English: "That took too long, so Skiff stopped waiting."}
	sayCancelled         = i18n.Sentence{Key: "errCancelled", English: "That was cancelled."}
	sayCorrupt           = i18n.Sentence{Key: "errCorrupt", English: "Part of Skiff's saved data ($1) is damaged and cannot be read."}
	sayCouldNot          = i18n.Sentence{Key: "errCouldNot", English: "Skiff could not do that: $1."}
	sayNoBrowserTools    = i18n.Sentence{Key: "errNoBrowserTools", English: "Skiff cannot reach the browser's tabs from here."}
	sayLinkClosed        = i18n.Sentence{Key: "errLinkClosed", English: "The link to skiffd closed before it answered; try again when it is back."}
	sayTurnLinkDropped   = i18n.Sentence{Key: "errLinkDropped", English: "The link to skiffd dropped during the agent's turn; send again when it is back."}
	sayImport            = i18n.Sentence{Key: "errImport", English: "This file cannot be imported: $1"}
	sayRenameBusy        = i18n.Sentence{Key: "errRenameBusy", English: "Wait for the reply to finish (or stop it) before renaming this chat."}
	sayNoSettings        = i18n.Sentence{Key: "errNoSettings", English: "Skiff's panel sent no settings to save. Reload the panel."}
	sayExportFormat      = i18n.Sentence{Key: "errExportFormat", English: "Skiff cannot export as “$1”; choose JSON or Markdown."}
	sayUnknownAnswer     = i18n.Sentence{Key: "errUnknownAnswer", English: "Skiff's panel sent an answer the core does not know (“$1”). Reload the panel."}
	sayAskGoneClient     = i18n.Sentence{Key: "errAskGoneClient", English: "This request is no longer waiting for an answer (it timed out, or its client went away)."}
	sayAskGoneRun        = i18n.Sentence{Key: "errAskGoneRun", English: "This request is no longer waiting for an answer (it timed out, or the run was stopped)."}
	sayAskTimedOut       = i18n.Sentence{Key: "errAskTimedOut", English: "This request waited longer than $1 for an answer, so it was denied."}
	sayNoScreenshot      = i18n.Sentence{Key: "errNoScreenshot", English: "This screenshot is no longer stored."}
	sayRevokeWhich       = i18n.Sentence{Key: "errRevokeWhich", English: "Say which permission to revoke."}
	sayAgentsUnlinked    = i18n.Sentence{Key: "errAgentsUnlinked", English: "Agents run in skiffd, which is not linked: turn the link on in Settings › Outside agents."}
	sayAgentLog          = i18n.Sentence{Key: "errAgentLog", English: "skiffd did not give the agent's log: $1."}
	sayFilesUnlinked     = i18n.Sentence{Key: "errFilesUnlinked", English: "The files agents share are in skiffd, which is not linked: turn the link on in Settings › Outside agents."}
	sayBadRequest        = i18n.Sentence{Key: "errBadRequest", English: "Skiff's panel sent a request the core cannot read ($1). Reload the panel."}
	sayBadMessage        = i18n.Sentence{Key: "errBadMessage", English: "Skiff's panel sent a message the core cannot read ($1). Reload the panel."}
	sayCoreFault         = i18n.Sentence{Key: "errCoreFault", English: "Skiff ran into a fault of its own ($1) and did not finish this. Nothing else was lost; please report it."}
	sayUnknownMethod     = i18n.Sentence{Key: "errUnknownMethod", English: "Skiff's panel asked for “$1”, which this version of the core does not know. Reload the panel."}
	sayPanelOnly         = i18n.Sentence{Key: "errPanelOnly", English: "This can only be done in Skiff's side panel. Open it from the toolbar's Skiff button."}
	sayPrivateWorkflow   = i18n.Sentence{Key: "errPrivateWorkflow", English: "A chat in an incognito window is not kept, so it cannot be saved as a workflow. Do the task in a window that is not incognito to save it."}
	saySaveBusy          = i18n.Sentence{Key: "errSaveBusy", English: "Wait for the run to finish (or stop it) before saving it as a workflow."}
	sayEditWorkflow      = i18n.Sentence{Key: "errEditWorkflow", English: "This edit cannot be saved: $1."}
	sayNotWorkflow       = i18n.Sentence{Key: "errNotWorkflow", English: "This file is not a Skiff workflow: $1."}
	sayNoWorkflowInFile  = i18n.Sentence{Key: "errNoWorkflowInFile", English: "This file holds no workflow."}
	sayImportWorkflow    = i18n.Sentence{Key: "errImportWorkflow", English: "Nothing was imported: workflow $1: $2."}
)

// sentences are the errors of the layers below, as the user reads them.
var sentences = []struct {
	err error
	say i18n.Sentence
}{
	{agent.ErrNoBrowser, sayNoBrowserTools},
	{agent.ErrNotAsking, sayAskGoneRun},
	{link.ErrClosed, sayLinkClosed},
	{agent.ErrBusy, sayBusy},
	{agent.ErrEmpty, sayEmpty},
	{agent.ErrKeptChat, sayKeptChat},
	{agent.ErrHostedPrivate, sayHostedPrivate},
	{agent.ErrNothingToEdit, sayNothingToEdit},
	{agent.ErrNothingToRegenerate, sayNothingToRegen},
	{agent.ErrReplayStart, sayReplayStart},
	{agent.ErrNothingToContinue, sayNothingToContinue},
	{agent.ErrQueueFull, sayQueueFull},
	{agent.ErrNotQueued, sayNotQueued},
	{agent.ErrQueueRunning, sayQueueRunning},
	{agent.ErrNothingQueued, sayNothingQueued},
	{context.DeadlineExceeded, sayTooLong},
	{context.Canceled, sayCancelled},
}

// Say is the one place where an error becomes what the panel shows: a sentence a user
// understands (a catalog key and its arguments, which the panel renders in the user's
// language) and, for a settings or form value, the field it belongs to.
func Say(err error) (text i18n.Text, field string) {
	var fe *store.FieldError
	if errors.As(err, &fe) {
		if fe.Text != nil {
			return *fe.Text, fe.Field
		}
		return i18n.Verbatim(fe.Message), fe.Field
	}
	var ie *i18n.Error
	if errors.As(err, &ie) {
		return ie.Text, ""
	}
	var pe *provider.Error
	if errors.As(err, &pe) {
		return pe.Text(), ""
	}
	var imp *store.ImportError
	if errors.As(err, &imp) {
		if imp.Text.IsZero() {
			return sayImport.With(imp.Reason), ""
		}
		return sayImport.With(imp.Text), ""
	}
	var ce *store.CorruptError
	if errors.As(err, &ce) {
		return sayCorrupt.With(ce.What), ""
	}
	for _, s := range sentences {
		if errors.Is(err, s.err) {
			return s.say.With(), ""
		}
	}
	return sayCouldNot.With(strings.TrimSuffix(err.Error(), ".")), ""
}

// Sentence is Say's sentence in English (for an outside client, which reads English).
func Sentence(err error) (msg, field string) {
	text, field := Say(err)
	return text.English(), field
}
