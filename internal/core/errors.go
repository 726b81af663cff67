package core

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/skiff-ai/skiff/internal/agent"
	"github.com/skiff-ai/skiff/internal/provider"
	"github.com/skiff-ai/skiff/internal/store"
)

// Problem is an error whose text is already written for the user.
type Problem struct{ Msg string }

func (p *Problem) Error() string { return p.Msg }

func problemf(format string, args ...any) error { return &Problem{Msg: fmt.Sprintf(format, args...)} }

// sentences are the errors of the layers below, as the user reads them.
var sentences = []struct {
	err error
	msg string
}{
	{store.ErrNotFound, "This chat no longer exists; it may have been deleted in another window."},
	{store.ErrNoWorkflow, "This workflow no longer exists; it may have been deleted in another window."},
	{store.ErrNoSchedule, "This schedule no longer exists; it may have been deleted in another window."},
	{store.ErrNoMemory, "This memory no longer exists; it may have been deleted in another window."},
	{store.ErrQuota, "Skiff's storage is full. Delete old chats in History (export them first if you want to keep them) and try again."},
	{store.ErrNewerSchema, "Your chats were saved by a newer version of Skiff. Update Skiff to open them."},
	{agent.ErrBusy, "Skiff is still replying in this chat. Wait for the reply or press Stop."},
	{agent.ErrEmpty, "Type a message first."},
	{agent.ErrNothingToEdit, "There is no message to edit in this chat."},
	{agent.ErrNothingToRegenerate, "There is no reply to regenerate in this chat."},
	{agent.ErrQueueFull, "Twenty messages are already waiting in this chat. Wait for the reply, or remove some from the queue."},
	{agent.ErrNotQueued, "That message is no longer waiting: it has been sent or removed."},
	{agent.ErrQueueRunning, "Skiff is still replying in this chat; the waiting messages are sent when it finishes."},
	{agent.ErrNothingQueued, "No message is waiting in this chat."},
	{context.DeadlineExceeded, "That took too long, so Skiff stopped waiting."},
	{context.Canceled, "That was cancelled."},
}

// Sentence is the one place where an error becomes what the panel shows: a sentence a user
// understands and, for a settings or form value, the field it belongs to.
func Sentence(err error) (msg, field string) {
	var fe *store.FieldError
	if errors.As(err, &fe) {
		return fe.Message, fe.Field
	}
	var p *Problem
	if errors.As(err, &p) {
		return p.Msg, ""
	}
	var pe *provider.Error
	if errors.As(err, &pe) {
		return pe.Error(), ""
	}
	var ie *store.ImportError
	if errors.As(err, &ie) {
		return ie.Error(), ""
	}
	var ce *store.CorruptError
	if errors.As(err, &ce) {
		return fmt.Sprintf("Part of Skiff's saved data (%s) is damaged and cannot be read.", ce.What), ""
	}
	for _, s := range sentences {
		if errors.Is(err, s.err) {
			return s.msg, ""
		}
	}
	return "Skiff could not do that: " + strings.TrimSuffix(err.Error(), ".") + ".", ""
}
