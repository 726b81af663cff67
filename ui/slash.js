// Slash commands: an agent skiffd hosts offers commands for its chat (ACP's
// available_commands_update, kept on the session). Typing "/" at the start of the message box
// lists those that match what follows; arrows move, Tab or Enter puts the command in the box
// (Enter on a command already typed in full sends it), Escape or a click elsewhere closes the
// list. A listbox the message box controls, so a screen reader follows the choice. The panel,
// the overlay and skiffd's web client share it: each says where its chat's commands are. A
// command with a text (a saved prompt, prompts.js) puts that text in the box when chosen, with
// the placeholders the source can fill filled in and the first one left selected: typing
// replaces it, Tab goes to the next one (Shift+Tab back) while any is left, Escape lets Tab move
// on from the box again.
import { el } from "./dom.js";
import { placeholderAt } from "./prompts.js";

let list = null; // <ul role="listbox">, made on first use above the composer
let input = null;
let shown = []; // the commands listed
let pick = 0; // the one chosen
let from = { commands: () => [], label: () => "Commands" };
let blanks = false; // the box holds a chosen prompt whose placeholders Tab goes through

// attach makes the list for the message box box. source.commands() are the chat's commands
// now ({name, description}); source.label() names the list in the user's language;
// source.fill(text), when there is one, is a prompt's text with what it knows filled in (a
// promise of it).
export function attach(box, source) {
  input = box;
  from = source;
  list = el("ul", { id: "slash-list", role: "listbox", hidden: true });
  box.form.before(list);
  box.setAttribute("aria-controls", "slash-list");
  box.setAttribute("aria-autocomplete", "list");
  box.addEventListener("input", () => {
    if (!input.value) blanks = false; // sent, or cleared
    update();
  });
  // Leaving the box closes the list: a moment later (after a click on an option), and only
  // if the focus did not come back in between (typing at once after a click elsewhere).
  box.addEventListener("blur", () => setTimeout(() => document.activeElement !== input && close(), 150));
  list.addEventListener("mousedown", (e) => e.preventDefault()); // the box keeps the focus
}

// update lists the commands that match what the box holds now.
export function update() {
  const m = /^\/(\S*)$/.exec(input.value);
  const all = from.commands() || [];
  shown = m ? all.filter((c) => c.name.toLowerCase().startsWith(m[1].toLowerCase())) : [];
  if (!shown.length) return close();
  pick = Math.min(pick, shown.length - 1);
  list.replaceChildren(...shown.map((c, i) => {
    const li = el("li", { id: "slash-" + i, role: "option", "aria-selected": String(i === pick) },
      el("span", { className: "slash-name", textContent: "/" + c.name }),
      c.description ? el("span", { className: "slash-desc", textContent: " " + c.description }) : null);
    li.dataset.name = c.name;
    li.addEventListener("click", () => choose(i));
    return li;
  }));
  list.setAttribute("aria-label", from.label()); // in the language of the moment
  list.hidden = false;
  input.setAttribute("aria-expanded", "true");
  input.setAttribute("aria-activedescendant", "slash-" + pick);
}

export function close() {
  if (!list || list.hidden) return;
  list.hidden = true;
  shown = [];
  pick = 0;
  input.setAttribute("aria-expanded", "false");
  input.removeAttribute("aria-activedescendant");
}

// choose puts command i in the box: a saved prompt's text (it has one), filled in, with its
// first placeholder left selected; else "/name ".
async function choose(i) {
  const c = shown[i];
  close();
  input.focus();
  if (c.text === undefined) {
    input.value = "/" + c.name + " ";
    return;
  }
  let text = c.text;
  try {
    if (from.fill) text = await from.fill(c.text);
  } catch {
    /* left as saved: the user fills it in */
  }
  input.value = text;
  const at = placeholderAt(text, 0);
  blanks = !!at;
  if (at) input.setSelectionRange(at[0], at[1]);
  else input.setSelectionRange(text.length, text.length);
}

// blank handles Tab and Shift+Tab in a box holding a chosen prompt: the next (or the one
// before) placeholder still in it is selected. None left, or after Escape, Tab moves on.
function blank(e) {
  if (!blanks || e.isComposing || e.altKey || e.ctrlKey || e.metaKey) return false;
  if (e.key === "Escape") {
    blanks = false;
    return false;
  }
  if (e.key !== "Tab") return false;
  const at = e.shiftKey ? placeholderAt(input.value, input.selectionStart, true) : placeholderAt(input.value, input.selectionEnd);
  if (!at) {
    blanks = false;
    return false;
  }
  input.setSelectionRange(at[0], at[1]);
  e.preventDefault();
  e.stopPropagation();
  return true;
}

// key handles a key pressed in the box while the list is open, and says whether it did.
export function key(e) {
  if (!list || list.hidden) return blank(e);
  if (e.isComposing) return false;
  switch (e.key) {
    case "ArrowDown":
    case "ArrowUp":
      pick = (pick + (e.key === "ArrowDown" ? 1 : shown.length - 1)) % shown.length;
      update();
      break;
    case "Tab":
      if (e.shiftKey) return false;
      choose(pick);
      break;
    case "Enter":
      if (e.shiftKey || (input.value === "/" + shown[pick].name && shown[pick].text === undefined)) {
        close();
        return false; // a command typed in full: Enter sends it
      }
      choose(pick);
      break;
    case "Escape":
      close();
      break;
    default:
      return false;
  }
  e.preventDefault();
  e.stopPropagation();
  return true;
}
