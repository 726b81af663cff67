package tool

// The registry, in the order models see it. Descriptions are written for a model: what the
// tool does, what it returns, and when to use it. Inputs are the structs below; their JSON
// Schemas are in schemas.json (go test ./internal/tool -run TestSchemas -update rewrites it).
var definitions = []Tool{
	def("tabs_list", Read, "read:tabs", (*TabsListInput)(nil), tabsTarget, tabsList,
		"List the open tabs: id, title, URL, which one is active, their group. The current tab (where other tools work by default) is marked."),
	def("tab_open", Navigate, "navigate:open", (*TabOpenInput)(nil), openTarget, tabOpen,
		"Open a URL in a new tab, wait for it to load, and make it the current tab."),
	def("tab_switch", Act, "act:switch", (*TabInput)(nil), switchTarget, tabSwitch,
		"Bring a tab to the front and make it the current tab."),
	def("tab_close", Destructive, "destructive:close", (*TabCloseInput)(nil), closeTarget, tabClose,
		"Close one or more tabs (the current tab when none is given)."),
	def("tab_group", Act, "act:group", (*TabGroupInput)(nil), groupTarget, tabGroup,
		"Put tabs in a tab group with a title and a colour (a new group, or an existing one by id)."),
	def("tab_ungroup", Act, "act:ungroup", (*TabIDsInput)(nil), ungroupTarget, tabUngroup,
		"Take tabs out of their groups."),

	def("navigate", Navigate, "navigate:go", (*NavigateInput)(nil), navigateTarget, navigate,
		"Load a URL in the current tab (or the given one) and wait for the page to settle. Take a snapshot afterwards to see it."),
	def("back", Navigate, "navigate:back", (*TabInput)(nil), moveTarget(whatBack), back,
		"Go back one page in the tab's history and wait for the page to settle."),
	def("forward", Navigate, "navigate:forward", (*TabInput)(nil), moveTarget(whatForward), forward,
		"Go forward one page in the tab's history and wait for the page to settle."),
	def("reload", Navigate, "navigate:reload", (*TabInput)(nil), moveTarget(whatReload), reload,
		"Reload the page and wait for it to settle."),

	def("snapshot", Read, "read:snapshot", (*SnapshotInput)(nil), snapshotTarget, snapshotTool,
		"See the page: a compact outline of what is visible on it (headings, text, fields with their values, buttons, links…), frames and shadow DOM included. Elements you can act on carry a ref like [e12]: pass it to click, type, hover, select_option and the others. Refs stay valid while the page lives; take a new snapshot after the page changes. Long texts are shortened (…): read_text reads the page's text whole, and ref gives one part of the page with its texts in full. Use interactive=true for the controls only."),
	def("read_text", Read, "read:text", (*ReadTextInput)(nil), readTextTarget, readText,
		"The page's main text as Markdown (the article, as a reader view finds it), with its title and URL. Best for reading and summarising; use snapshot to act."),
	def("get_content", Read, "read:content", (*GetContentInput)(nil), contentTarget, getContent,
		"The visible text, or the HTML, of the element a CSS selector matches (the whole page when no selector is given)."),
	def("links", Read, "read:links", (*LinksInput)(nil), linksTarget, linksTool,
		"The links on the page with their text, URL and ref, optionally only those whose text or URL contains a word."),
	def("find_text", Read, "read:find", (*FindTextInput)(nil), findTarget, findText,
		"Find text on the page: each match with the words around it, where it is, and the ref of the element to act on near it."),
	def("console_messages", Read, "read:console", (*ConsoleInput)(nil), consoleTarget, consoleMessages,
		"The page's console since it loaded, as DevTools shows it: what its scripts logged, the errors they threw, and what the browser said of the page (a resource that failed to load, a blocked request), each with where it came from. For finding why a page misbehaves."),
	def("network_requests", Read, "read:network", (*NetworkInput)(nil), networkTarget, networkRequests,
		"What the page fetched since it loaded: each address with what asked for it, its HTTP status, time and size. By default only what its scripts asked for (fetch, XHR) and what failed; all=true adds pictures, scripts and styles. (Methods and headers are not kept.)"),
	def("screenshot", Read, "read:screenshot", (*ScreenshotInput)(nil), screenshotTarget, screenshot,
		"A picture of what the tab shows now (the visible part of the page); of one element only, given by ref or selector; or of the whole page with fullPage."),

	def("click", Act, "act:click", (*ClickInput)(nil), clickTarget, click,
		"Click an element (by ref from the snapshot, or a CSS selector), or a point of the viewport. Skiff first checks that the element is visible, enabled, still and not covered, and scrolls it into view."),
	def("type", Act, "act:type", (*TypeInput)(nil), typeTarget, typeTool,
		"Type text into a field: it replaces what the field holds unless clear is false, and presses Enter afterwards when submit is true. In a drop-down (a <select>, or a list the page draws) the text chooses the option it names."),
	def("fill_form", Act, "act:fill", (*FillFormInput)(nil), fillTarget, fillForm,
		"Fill several fields at once: text fields get the value, checkboxes and radios are set when the value is true, drop-downs pick the option with that label or value. Optionally submit the form."),
	def("select_option", Act, "act:select", (*SelectInput)(nil), selectTarget, selectTool,
		"Choose options of a drop-down by their label or value: a <select>, or a list the page draws (a combobox, a field that suggests as you type, a listbox), which is opened and its option clicked."),
	def("press_key", Act, "act:key", (*PressKeyInput)(nil), pressTarget, pressKey,
		"Press a key or a chord (Enter, Escape, Tab, ArrowDown, Control+A, Shift+Tab…) in the focused element, or in the given element after focusing it."),
	def("hover", Act, "act:hover", (*HoverInput)(nil), hoverTarget, hover,
		"Move the mouse over an element (opens menus and tooltips that show on hover)."),
	def("drag", Act, "act:drag", (*DragInput)(nil), dragTarget, dragTool,
		"Drag an element and drop it on another: reorder a list (drop on the item whose place it takes), move a card to another column, drop an item on a folder or a bin. The mouse presses on the element, moves over to the other in steps as a hand does, and lets go there; the result says where the element is now, or that nothing moved."),
	takesFiles(def("upload_file", Act, "act:upload", (*UploadInput)(nil), uploadTarget, upload,
		"Choose files for the page: a file field, or what the page offers instead (an Attach or Upload button, a drop zone), by ref. The files are given to the page as the system's file chooser would give them; the user is always asked first. The result says what the field holds now.")),
	def("scroll", Act, "act:scroll", (*ScrollInput)(nil), scrollTarget, scrollTool,
		"Scroll the page, or a box in it that scrolls on its own (a list, a pane of messages, a dialog's text: the snapshot marks them scrollable), up, down, left, right, to the top or the bottom (by amount pixels, or most of a screen), or scroll an element into view."),
	def("wait_for", Read, "read:wait", (*WaitInput)(nil), waitTarget, waitFor,
		"Wait until an element matching a selector is visible, a text appears, a text disappears, or for a number of seconds."),
	def("dialog", Act, "act:dialog", (*DialogInput)(nil), dialogTarget, dialogTool,
		"Answer the JavaScript dialog the page is showing (alert, confirm, prompt, or the 'leave this page?' question): accept or dismiss it, with text for a prompt."),

	def("history_search", Read, "read:history", (*HistorySearchInput)(nil), historySearchTarget, historySearch,
		"Search the browser's history for pages whose URL or title contains the text."),
	def("history_recent", Read, "read:history", (*HistoryRecentInput)(nil), historyRecentTarget, historyRecent,
		"The pages visited in the last hours, most recent first."),
	def("history_visits", Read, "read:history", (*URLInput)(nil), visitsTarget, historyVisits,
		"How many times a URL was visited, and its last visits with how the user got there."),
	def("history_delete_url", Destructive, "destructive:history", (*URLInput)(nil), deleteURLTarget, historyDeleteURL,
		"Delete every visit of a URL from the history. It cannot be undone."),
	def("history_delete_range", Destructive, "destructive:history", (*HistoryRangeInput)(nil), deleteRangeTarget, historyDeleteRange,
		"Delete all history between two times. It cannot be undone."),

	def("run_script", Scripting, "script:run", (*RunScriptInput)(nil), scriptTarget, runScript,
		"Run JavaScript in the page (as the page's own scripts run) and return its value as JSON. Last resort, when no other tool can do it."),

	// Seed 001's two tools, accepted for agents written against them and mapped onto the above.
	alias("tab_read", Read, "read:tab_read", (*TabReadInput)(nil), expandRead,
		"Read the current tab: mode info (title and URL), dom (its text), screenshot, or elements (what can be clicked or typed into)."),
	alias("tab_action", Act, "act:tab_action", (*TabActionInput)(nil), expandAction,
		"Act in the current tab: scroll, click, type or wait; one step, or several in actions with waitMs between them, within timeoutMs."),
}

// takesFiles marks t as a tool that gives a page files (Tool.Files).
func takesFiles(t Tool) Tool {
	t.Files = true
	return t
}

// TabsListInput is tabs_list's input.
type TabsListInput struct {
	CurrentWindow bool `json:"currentWindow,omitempty" jsonschema_description:"Only the tabs of the current window."`
}

// TabInput names a tab.
type TabInput struct {
	TabID int `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// TabOpenInput is tab_open's input.
type TabOpenInput struct {
	URL        string `json:"url" jsonschema_description:"The address to open (https://…)."`
	Background bool   `json:"background,omitempty" jsonschema_description:"Open it without bringing it to the front."`
}

// TabCloseInput is tab_close's input.
type TabCloseInput struct {
	TabIDs []int `json:"tabIds,omitempty" jsonschema_description:"The tabs to close. The current tab when omitted."`
}

// TabGroupInput is tab_group's input.
type TabGroupInput struct {
	TabIDs  []int  `json:"tabIds" jsonschema_description:"The tabs to put in the group."`
	Title   string `json:"title,omitempty" jsonschema_description:"The group's title."`
	Color   string `json:"color,omitempty" jsonschema:"enum=grey,enum=blue,enum=red,enum=yellow,enum=green,enum=pink,enum=purple,enum=cyan,enum=orange" jsonschema_description:"The group's colour."`
	GroupID *int   `json:"groupId,omitempty" jsonschema_description:"Add to this existing group instead of making a new one."`
}

// TabIDsInput names tabs.
type TabIDsInput struct {
	TabIDs []int `json:"tabIds" jsonschema_description:"The tabs."`
}

// NavigateInput is navigate's input.
type NavigateInput struct {
	URL   string `json:"url" jsonschema_description:"The address to load (https://…)."`
	TabID int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// SnapshotInput is snapshot's input.
type SnapshotInput struct {
	TabID       int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
	Ref         string `json:"ref,omitempty" jsonschema_description:"Only the part of the page inside this element (a ref from an earlier snapshot), its texts in full."`
	Interactive bool   `json:"interactive,omitempty" jsonschema_description:"Only what can be acted on (links, buttons, fields…), with the headings around it."`
	MaxTokens   int    `json:"maxTokens,omitempty" jsonschema:"minimum=500,maximum=40000" jsonschema_description:"The most tokens the snapshot may take (6000 by default); a longer page is shortened and the result says how to see the rest."`
	After       string `json:"after,omitempty" jsonschema_description:"Continue a snapshot that was cut: only what comes after the element with this ref (the cut snapshot names it)."`
}

// ReadTextInput is read_text's input.
type ReadTextInput struct {
	TabID    int `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
	MaxChars int `json:"maxChars,omitempty" jsonschema:"minimum=1000,maximum=200000" jsonschema_description:"The most characters to return (32000 by default)."`
}

// GetContentInput is get_content's input.
type GetContentInput struct {
	Selector string `json:"selector,omitempty" jsonschema_description:"A CSS selector; the whole page when omitted."`
	HTML     bool   `json:"html,omitempty" jsonschema_description:"Return the element's HTML instead of its visible text."`
	TabID    int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
	MaxChars int    `json:"maxChars,omitempty" jsonschema:"minimum=100,maximum=200000" jsonschema_description:"The most characters to return (20000 by default)."`
}

// LinksInput is links' input.
type LinksInput struct {
	Filter string `json:"filter,omitempty" jsonschema_description:"Only links whose text or URL contains this (any case)."`
	TabID  int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// FindTextInput is find_text's input.
type FindTextInput struct {
	Text  string `json:"text" jsonschema_description:"The text to look for (any case)."`
	TabID int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// ScreenshotInput is screenshot's input.
type ScreenshotInput struct {
	Target
	TabID    int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
	Format   string `json:"format,omitempty" jsonschema:"enum=jpeg,enum=png" jsonschema_description:"jpeg (smaller, the default) or png (sharper)."`
	FullPage bool   `json:"fullPage,omitempty" jsonschema_description:"The whole page, scrolled or not, instead of what the window shows (its first 8000 pixels at most)."`
}

// ClickInput is click's input.
type ClickInput struct {
	Target
	X      *float64 `json:"x,omitempty" jsonschema_description:"Click this point instead: pixels from the left of the viewport (with y)."`
	Y      *float64 `json:"y,omitempty" jsonschema_description:"Pixels from the top of the viewport (with x)."`
	Button string   `json:"button,omitempty" jsonschema:"enum=left,enum=right,enum=middle" jsonschema_description:"The mouse button (left by default)."`
	Double bool     `json:"double,omitempty" jsonschema_description:"Double-click."`
	TabID  int      `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// TypeInput is type's input.
type TypeInput struct {
	Target
	Text   string `json:"text" jsonschema_description:"The text to type."`
	Clear  *bool  `json:"clear,omitempty" jsonschema_description:"Replace what the field holds (true by default); false adds to it."`
	Submit bool   `json:"submit,omitempty" jsonschema_description:"Press Enter afterwards (sends a search box or a form)."`
	TabID  int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// FillField is one field of fill_form.
type FillField struct {
	Target
	Value string `json:"value" jsonschema_description:"Text for a text field; true or false for a checkbox or radio; an option's label or value for a drop-down; a number for a slider."`
}

// FillFormInput is fill_form's input.
type FillFormInput struct {
	Fields []FillField `json:"fields" jsonschema_description:"The fields to fill, in order."`
	Submit bool        `json:"submit,omitempty" jsonschema_description:"Press Enter in the last text field afterwards."`
	TabID  int         `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// SelectInput is select_option's input.
type SelectInput struct {
	Target
	Values []string `json:"values" jsonschema_description:"The options to choose, by label or value (one, unless the list allows several). For a list that opens a level at a time (a cascader: region, country, city), the path, one value a level from the first."`
	TabID  int      `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// PressKeyInput is press_key's input.
type PressKeyInput struct {
	Key      string `json:"key" jsonschema_description:"The key or chord: Enter, Escape, Tab, Backspace, Delete, ArrowUp/Down/Left/Right, PageUp, PageDown, Home, End, F1–F12, a character, or modifiers joined with + (Control+A, Shift+Tab, Meta+K)."`
	Ref      string `json:"ref,omitempty" jsonschema_description:"Focus this element first (a ref from the snapshot)."`
	Selector string `json:"selector,omitempty" jsonschema_description:"Focus the element this CSS selector matches first."`
	TabID    int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// HoverInput is hover's input.
type HoverInput struct {
	Target
	TabID int `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// DragInput is drag's input.
type DragInput struct {
	Target
	To    Target `json:"to" jsonschema_description:"Where to drop it: the element to let go over (a ref from the snapshot, or a CSS selector)."`
	TabID int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// UploadInput is upload_file's input.
type UploadInput struct {
	Target
	Files []string `json:"files" jsonschema_description:"The files to choose: for an outside agent, absolute paths on the computer skiffd runs on (read there); in Skiff's panel, the names of pictures and files the user attached to the chat."`
	TabID int      `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// ScrollInput is scroll's input.
type ScrollInput struct {
	Direction string `json:"direction,omitempty" jsonschema:"enum=down,enum=up,enum=left,enum=right,enum=top,enum=bottom" jsonschema_description:"Where to scroll (down by default)."`
	Amount    int    `json:"amount,omitempty" jsonschema:"minimum=1" jsonschema_description:"How many pixels (most of a screen by default)."`
	Ref       string `json:"ref,omitempty" jsonschema_description:"An element (a ref from the snapshot). Without a direction, it is scrolled into view; with one, the box it is in scrolls that way, or the element itself when the snapshot says it is scrollable (a list, a pane of messages, a dialog's text)."`
	Selector  string `json:"selector,omitempty" jsonschema_description:"The element, by a CSS selector, as ref."`
	TabID     int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// WaitInput is wait_for's input.
type WaitInput struct {
	Selector  string  `json:"selector,omitempty" jsonschema_description:"Wait until an element matching this CSS selector is visible."`
	Text      string  `json:"text,omitempty" jsonschema_description:"Wait until this text is on the page."`
	TextGone  string  `json:"textGone,omitempty" jsonschema_description:"Wait until this text is no longer on the page."`
	Seconds   float64 `json:"seconds,omitempty" jsonschema:"minimum=0,maximum=30" jsonschema_description:"Just wait this many seconds (when nothing else is given)."`
	TimeoutMs int     `json:"timeoutMs,omitempty" jsonschema:"minimum=100,maximum=60000" jsonschema_description:"Give up after this many milliseconds (10000 by default)."`
	TabID     int     `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// DialogInput is dialog's input.
type DialogInput struct {
	Accept     bool   `json:"accept" jsonschema_description:"true presses OK (or Leave); false presses Cancel."`
	PromptText string `json:"promptText,omitempty" jsonschema_description:"The answer to type into a prompt dialog."`
	TabID      int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// HistorySearchInput is history_search's input.
type HistorySearchInput struct {
	Text       string `json:"text" jsonschema_description:"Words to find in URLs and titles."`
	StartTime  int64  `json:"startTime,omitempty" jsonschema_description:"Only visits after this time, in milliseconds since 1970 (the last 30 days by default)."`
	EndTime    int64  `json:"endTime,omitempty" jsonschema_description:"Only visits before this time, in milliseconds since 1970."`
	MaxResults int    `json:"maxResults,omitempty" jsonschema:"minimum=1,maximum=500" jsonschema_description:"At most this many pages (50 by default)."`
}

// HistoryRecentInput is history_recent's input.
type HistoryRecentInput struct {
	Hours      float64 `json:"hours,omitempty" jsonschema:"minimum=0" jsonschema_description:"How far back to look (24 hours by default)."`
	MaxResults int     `json:"maxResults,omitempty" jsonschema:"minimum=1,maximum=500" jsonschema_description:"At most this many pages (50 by default)."`
}

// URLInput names a URL.
type URLInput struct {
	URL string `json:"url" jsonschema_description:"The page's full address."`
}

// HistoryRangeInput is history_delete_range's input.
type HistoryRangeInput struct {
	StartTime int64 `json:"startTime" jsonschema_description:"From this time, in milliseconds since 1970."`
	EndTime   int64 `json:"endTime" jsonschema_description:"To this time, in milliseconds since 1970."`
}

// RunScriptInput is run_script's input.
type RunScriptInput struct {
	Code  string `json:"code" jsonschema_description:"JavaScript, run as in the DevTools console: the value of the last expression is the result (await works at the top level), or use return. The value comes back as JSON."`
	TabID int    `json:"tabId,omitempty" jsonschema_description:"The tab, from tabs_list. The current tab when omitted."`
}

// TabReadInput is seed 001's tab_read.
type TabReadInput struct {
	Mode    string `json:"mode" jsonschema:"enum=info,enum=dom,enum=screenshot,enum=elements" jsonschema_description:"What to read."`
	Format  string `json:"format,omitempty" jsonschema:"enum=png,enum=jpeg" jsonschema_description:"For screenshot: png (the default) or jpeg."`
	Quality int    `json:"quality,omitempty" jsonschema_description:"For a jpeg screenshot: 0–100."`
	TabID   int    `json:"tabId,omitempty" jsonschema_description:"The tab; the current tab when omitted."`
}

// TabActionStep is one step of seed 001's tab_action.
type TabActionStep struct {
	Action    string  `json:"action,omitempty" jsonschema:"enum=scroll,enum=click,enum=type,enum=wait" jsonschema_description:"What to do."`
	Ref       string  `json:"ref,omitempty" jsonschema_description:"The element (a ref from a snapshot or from tab_read elements)."`
	Selector  string  `json:"selector,omitempty" jsonschema_description:"The element, as a CSS selector."`
	X         float64 `json:"x,omitempty" jsonschema_description:"For click: a point of the viewport."`
	Y         float64 `json:"y,omitempty" jsonschema_description:"For click: a point of the viewport."`
	Text      string  `json:"text,omitempty" jsonschema_description:"For type: the text; for wait: text to wait for."`
	Direction string  `json:"direction,omitempty" jsonschema_description:"For scroll: up, down, top or bottom."`
	Amount    int     `json:"amount,omitempty" jsonschema_description:"For scroll: pixels."`
	WaitMs    int     `json:"waitMs,omitempty" jsonschema_description:"Pause this long after the step; for wait without text or selector, the time to wait."`
}

// TabActionInput is seed 001's tab_action: one step, or several in Actions.
type TabActionInput struct {
	TabActionStep
	Actions   []TabActionStep `json:"actions,omitempty" jsonschema_description:"Several steps, done in order."`
	TimeoutMs int             `json:"timeoutMs,omitempty" jsonschema_description:"Give up on the remaining steps after this long (30000 by default)."`
	TabID     int             `json:"tabId,omitempty" jsonschema_description:"The tab; the current tab when omitted."`
}
