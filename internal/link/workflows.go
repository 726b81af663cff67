package link

// Workflows as tools of outside clients: skiffd offers these beside the browser's tools and
// relays them as any tool call (ToolCall); the extension runs them. workflow_run replays a saved
// workflow step by step through the gate, as the calling client, in the client's tab group;
// workflow_save saves what the client's own calls did as a workflow, once the user allows it.
const (
	WorkflowListTool = "workflow_list"
	WorkflowRunTool  = "workflow_run"
	WorkflowSaveTool = "workflow_save"
)

// WorkflowSaveArgs are workflow_save's arguments.
type WorkflowSaveArgs struct {
	Name string `json:"name" jsonschema_description:"The workflow's name, as the user will find it in Skiff"`
	Task string `json:"task,omitempty" jsonschema_description:"What the user asked you to do, in their words: a value of theirs in an address you went to (a search) becomes a value the workflow takes"`
}

// WorkflowRunArgs are workflow_run's arguments.
type WorkflowRunArgs struct {
	Workflow string            `json:"workflow" jsonschema_description:"The workflow’s id or its name, as workflow_list gives them"`
	Values   map[string]string `json:"values,omitempty" jsonschema_description:"The values of its parameters, by name; one left out takes the value it was recorded with (a secret has none and must be given)"`
}

// WorkflowListArgs are workflow_list's arguments (none).
type WorkflowListArgs struct{}

// WorkflowInfo is a workflow as workflow_list describes it to a client.
type WorkflowInfo struct {
	ID    string   `json:"id"`
	Name  string   `json:"name"`
	Steps []string `json:"steps"`
	Sites []string `json:"sites,omitempty"`
	// Values is the JSON Schema of workflow_run's values for this workflow.
	Values map[string]any `json:"values"`
}
