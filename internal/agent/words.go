package agent

import "github.com/skiff-ai/skiff/internal/i18n"

// The sentences a run leaves for the user on its messages (their French is in ui/_locales).
var (
	sayNotAttached  = i18n.Sentence{Key: "noticeNotAttached", English: "The page was not attached: $1."}
	sayNotAgent     = i18n.Sentence{Key: "noticeNotAgent", English: "The model asked to use tools, but this chat is not in agent mode: turn on Agent to let it."}
	sayLooping      = i18n.Sentence{Key: "noticeLooping", English: "The model made the same calls $1 times in a row and they failed the same way each time, so Skiff stopped the run. Send a message to help it on, or try another model."}
	sayStepLimit    = i18n.Sentence{Key: "noticeStepLimit", One: "Stopped after $1 step, the limit set in Settings. Send a message to let it go on.", English: "Stopped after $1 steps, the limit set in Settings. Send a message to let it go on."}
	sayAgentLimit   = i18n.Sentence{Key: "noticeAgentLimit", English: "The agent stopped at its limit ($1). Send a message to let it go on."}
	sayAgentForgot  = i18n.Sentence{Key: "noticeAgentForgot", English: "The agent could not reopen this chat's session, so it started a new one: it does not remember the earlier messages."}
	sayAgentKeeps   = i18n.Sentence{Key: "noticeAgentKeeps", English: "The agent reopened this session but cannot show its earlier messages here: it remembers them, and what comes next shows here."}
	sayAgentRefused = i18n.Sentence{Key: "noticeAgentRefused", English: "The agent refused to go on."}
	sayCouldNotRead = i18n.Sentence{Key: "errReadConversation", English: "Could not read the conversation: $1"}
	sayCouldNotSave = i18n.Sentence{Key: "errSaveReply", English: "Could not save the reply: $1"}
	sayFault        = i18n.Sentence{Key: "errFault", English: "Skiff ran into a fault of its own and stopped here ($1). The chat is saved as it was; please report it."}
	sayPlanWhat     = i18n.Sentence{Key: "whatPlan", One: "carry out a plan of $1 step on $2 ($3)", English: "carry out a plan of $1 steps on $2 ($3)"}
	// A plan's kinds of action, as its ask says them (the panel's card says them so too).
	sayKindNavigate = i18n.Sentence{Key: "planKind_navigate", English: "load pages"}
	sayKindFill     = i18n.Sentence{Key: "planKind_fill", English: "fill in forms"}
	sayKindClick    = i18n.Sentence{Key: "planKind_click", English: "click"}
	sayMovedOn      = i18n.Sentence{Key: "decMovedOn", English: "denied: the user sent a new message instead"}
	sayApproved     = i18n.Sentence{Key: "resApproved", English: "approved"}
	sayLength       = i18n.Sentence{Key: "noticeLength", English: "The reply reached the length limit ($1 tokens, set in Settings) and stops here. Raise the limit, or ask the model to go on."}
	sayRunaway      = i18n.Sentence{Key: "noticeRunaway", English: "The reply went on far past the length limit ($1 tokens, set in Settings), so Skiff stopped it here."}
	sayModelLength  = i18n.Sentence{Key: "noticeModelLength", English: "The reply reached the model's length limit and stops here. Ask the model to go on."}
	sayFitted       = i18n.Sentence{Key: "noticeFitted", English: "The conversation did not fit in the model's context window, so it got only your last message and the latest page read."}
	sayServerWindow = i18n.Sentence{Key: "noticeServerWindow", English: "Ollama runs $1 with a context window of $2 tokens, and this conversation takes about $3, so the model did not get all of it. Raise the context length in Ollama's settings (or start Ollama with OLLAMA_CONTEXT_LENGTH=32768)."}
	sayFittedSome   = i18n.Sentence{Key: "noticeFittedSome", One: "The conversation did not fit in the model's context window, so it did not get the earliest message.", English: "The conversation did not fit in the model's context window, so it did not get the $1 earliest messages."}
	sayRetrying     = i18n.Sentence{Key: "noticeRetrying", English: "$1 is busy; Skiff asks again in $2 s…"}
	sayContextFull  = i18n.Sentence{Key: "noticeContextFull", English: "The conversation filled the model's context window, so the reply stops here. Start a new chat, or pick a model with a larger context."}
	sayFiltered     = i18n.Sentence{Key: "noticeFiltered", English: "The provider stopped this reply under its content rules ($1). Rephrase the message, or try another model."}
	sayOddFinish    = i18n.Sentence{Key: "noticeOddFinish", English: "The model stopped without finishing its reply ($1)."}
	sayBadCall      = i18n.Sentence{Key: "noticeBadCall", English: "The model tried to call a tool, but $1 could not read the call ($2). Regenerate the reply, or try another model."}
	sayEmptyReply   = i18n.Sentence{Key: "noticeEmptyReply", English: "The model ended its reply without writing anything. Regenerate it, or try another model."}
	sayNoFinish     = i18n.Sentence{Key: "errNoFinish", English: "The reply ended before the model finished; the partial text is kept."}
	// Who makes a call, as the gate and the audit log name Skiff's own callers.
	sayPanelModel     = i18n.Sentence{Key: "whoPanelModel", English: "the model in the panel"}
	sayWorkflowCaller = i18n.Sentence{Key: "askWhoWorkflow", English: "the workflow “$1”"}
)

// kindWords are the words for each of a plan's kinds of action (planKinds).
var kindWords = map[string]i18n.Sentence{"navigate": sayKindNavigate, "fill": sayKindFill, "click": sayKindClick}
