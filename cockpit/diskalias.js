/*
 * diskalias in Cockpit. The page reads 'diskalias map -J' (every bay of
 * every SES enclosure and PCIe slot, with its disk, alias and LEDs, and the
 * chassis layouts the table describes) and draws it; the buttons run
 * 'diskalias locate', 'fault', 'set' and 'rename' with superuser rights
 * where Cockpit has them, and show what they say when they refuse. It
 * reads again on udev's block and enclosure events, and every few seconds
 * while it is shown.
 *
 * Every string from the machine is put in the page as text, never as
 * markup, and control bytes are shown escaped (\x1b), as the terminal
 * shows them.
 */
"use strict";

(function () {
    const POLL_MS = 5000;
    const state = {
        data: null,
        text: null, /* what diskalias said last: the data's JSON */
        selected: null, /* the identity of the bay shown in the details */
        running: false,
        again: false,
        timer: null,
    };

    function $(id) {
        return document.getElementById(id);
    }

    /* A string from the machine as the page shows it: control bytes escaped. */
    function shown(s) {
        if (s === null || s === undefined)
            return "";
        return String(s).replace(/[\x00-\x1f\x7f]/g, function (c) {
            return "\\x" + c.charCodeAt(0).toString(16).padStart(2, "0");
        });
    }

    function el(tag, cls, text) {
        const e = document.createElement(tag);

        if (cls)
            e.className = cls;
        if (text !== undefined)
            e.textContent = shown(text);
        return e;
    }

    function diskalias(args) {
        return cockpit.spawn(["diskalias"].concat(args), { superuser: "try", err: "message" });
    }

    /* What a refused command said, without the program's own name before it. */
    function refusal(ex) {
        const msg = (ex && (ex.message || ex.problem)) || String(ex);

        if (ex && ex.problem === "not-found")
            return "diskalias is not installed on this machine";
        return msg.trim().split("\n").map(function (l) {
            return l.replace(/^diskalias: /, "");
        }).join("\n");
    }

    function showAlert(id, text) {
        const a = $(id);

        a.textContent = shown(text || "");
        a.hidden = !text;
    }

    /* Every bay of the machine by its identity (the first, when enclosures share an id). */
    function slotsById(data) {
        const m = new Map();

        (data.enclosures || []).forEach(function (enc) {
            (enc.slots || []).forEach(function (s) {
                if (s.identity && !m.has(s.identity))
                    m.set(s.identity, Object.assign({ enclosureInfo: enc }, s));
            });
        });
        return m;
    }

    function slotNumber(identity) {
        const i = identity.lastIndexOf("/");

        return i < 0 ? identity : identity.slice(i + 1);
    }

    function stateWord(bay, slot) {
        if (bay && bay.state)
            return bay.state;
        if (!slot)
            return "absent";
        if (slot.device)
            return slot.status === "OK" || slot.status === null ? "OK" : "failed";
        return "empty";
    }

    function ledOn(slot, led) {
        return !!slot && slot[led] === "on";
    }

    /* One cell of a front panel: its number, name, disk and state; a locate button. */
    function bayCell(bay, slot) {
        const identity = bay.identity;
        const st = stateWord(bay, slot);
        const cell = el("div", "da-bay da-state-" + st.replace(/[^A-Za-z]/g, ""));
        const pick = el("button", "da-bay-pick");
        const lamp = el("button", "da-lamp", "Locate");
        const name = bay.name || (slot && slot.bay) || "";
        let disk = slot && slot.device ? slot.device : "-";
        let badges = "";

        if (slot && slot.alias && slot.alias !== name && slot.device)
            disk = slot.alias;
        if (ledOn(slot, "locate")) {
            cell.classList.add("da-locate-on");
            badges += " LOCATE";
        }
        if (ledOn(slot, "fault")) {
            cell.classList.add("da-fault-on");
            badges += " FAULT";
        }
        if (state.selected === identity)
            cell.classList.add("da-selected");
        cell.dataset.identity = identity;
        cell.style.gridRow = String(bay.row + 1);
        cell.style.gridColumn = String(bay.column + 1);

        pick.type = "button";
        pick.title = "slot:" + shown(identity);
        pick.appendChild(el("span", "da-bay-number", slotNumber(identity)));
        pick.appendChild(el("span", "da-bay-name", name));
        pick.appendChild(el("span", "da-bay-disk", disk));
        pick.appendChild(el("span", "da-bay-state", st + badges));
        if (slot && slot.device)
            pick.appendChild(el("span", "da-bay-model", [slot.size, slot.model].filter(Boolean).join(" ")));
        pick.addEventListener("click", function () {
            select(identity);
        });

        lamp.type = "button";
        lamp.setAttribute("aria-pressed", ledOn(slot, "locate") ? "true" : "false");
        lamp.setAttribute("aria-label", "Locate LED of bay " + shown(name || identity));
        lamp.disabled = !slot || slot.locate === null;
        lamp.addEventListener("click", function () {
            led("locate", identity, !ledOn(slot, "locate"));
        });

        cell.appendChild(pick);
        cell.appendChild(lamp);
        return cell;
    }

    function partCaption(part) {
        const rows = part.rows + " row" + (part.rows === 1 ? "" : "s") + " of " + part.columns;

        return part.side + ": " + part.enclosure + ", " + rows + ", first bay " + part.first +
               ", numbered along the " + part.by;
    }

    function drawChassis(box, data, slots) {
        let section = null;
        let last = null;

        (data.chassis || []).forEach(function (part) {
            if (part.name !== last) {
                section = el("section", "da-chassis");
                section.dataset.chassis = part.name;
                section.appendChild(el("h2", null, "Chassis " + part.name));
                box.appendChild(section);
                last = part.name;
            }
            const figure = el("figure", "da-part");
            const grid = el("div", "da-grid");

            figure.appendChild(el("figcaption", "da-muted", partCaption(part)));
            grid.style.gridTemplateColumns = "repeat(" + part.columns + ", minmax(7.5rem, 1fr))";
            grid.style.gridTemplateRows = "repeat(" + part.rows + ", auto)";
            part.bays.forEach(function (bay) {
                grid.appendChild(bayCell(bay, slots.get(bay.identity)));
            });
            figure.appendChild(grid);
            section.appendChild(figure);
        });
    }

    /* The bays no chassis describes, by enclosure, as 'diskalias map' lists them. */
    function drawOthers(box, data) {
        const described = (data.chassis || []).length > 0;
        const heads = ["Slot", "Bay", "Alias", "Device", "Model", "Serial", "Size", "Status", "Locate", "Fault", ""];

        (data.enclosures || []).forEach(function (enc) {
            const rest = (enc.slots || []).filter(function (s) {
                return s.chassis === null || s.chassis === undefined;
            });

            if (rest.length === 0)
                return;
            const section = el("section", "da-enclosure");
            const title = enc.type === "pcie"
                ? "PCIe slots"
                : "Enclosure " + enc.enclosure + (enc.id ? " (" + enc.id + ")" : "");
            const table = el("table", "da-table");
            const hr = el("tr");

            section.appendChild(el("h2", null, title));
            if (enc["shared-id"])
                section.appendChild(el("p", "da-alert da-alert-warning",
                                       "Another enclosure reports the same id: slot: aliases cannot tell their bays apart."));
            heads.forEach(function (h) {
                hr.appendChild(el("th", null, h));
            });
            table.appendChild(el("thead")).appendChild(hr);
            const body = table.appendChild(el("tbody"));

            rest.forEach(function (s) {
                const tr = el("tr", "da-row");
                const lamp = el("button", "da-lamp", "Locate");
                const values = [s.slot, s.bay, s.alias, s.device, s.model, s.serial, s.size, s.status,
                    s.locate, s.fault];

                tr.dataset.identity = s.identity || "";
                if (state.selected && state.selected === s.identity)
                    tr.classList.add("da-selected");
                values.forEach(function (v) {
                    tr.appendChild(el("td", null, v === null ? "" : v));
                });
                lamp.type = "button";
                lamp.setAttribute("aria-pressed", ledOn(s, "locate") ? "true" : "false");
                lamp.disabled = !s.identity || s.locate === null;
                lamp.addEventListener("click", function (ev) {
                    ev.stopPropagation();
                    led("locate", s.identity, !ledOn(s, "locate"));
                });
                tr.appendChild(el("td")).appendChild(lamp);
                if (s.identity)
                    tr.addEventListener("click", function () {
                        select(s.identity);
                    });
                body.appendChild(tr);
            });
            section.appendChild(table);
            box.appendChild(section);
        });
        if (!described) {
            const p = el("p", "da-empty-note",
                         "No chassis is described in the alias table: the bays by enclosure. " +
                         "Describe one with 'diskalias chassis set'.");

            box.insertBefore(p, box.firstChild);
        }
    }

    function fact(dl, term, value) {
        dl.appendChild(el("dt", null, term));
        dl.appendChild(el("dd", null, value === null || value === undefined || value === "" ? "-" : value));
    }

    function drawDetails(slots) {
        const aside = $("da-details");
        const slot = state.selected ? slots.get(state.selected) : null;

        if (!state.selected) {
            aside.hidden = true;
            return;
        }
        const dl = $("da-details-list");
        const name = slot ? slot.alias || slot.bay : null;

        aside.hidden = false;
        aside.dataset.identity = state.selected;
        $("da-details-title").textContent = shown("Bay " + slotNumber(state.selected) + (name ? " \u2014 " + name : ""));
        dl.textContent = "";
        fact(dl, "Alias", slot && slot.alias);
        fact(dl, "Disk", slot && slot.device);
        fact(dl, "Model", slot && slot.model);
        fact(dl, "Serial", slot && slot.serial);
        fact(dl, "Size", slot && slot.size);
        fact(dl, "Status", slot ? slot.status : "not on this machine");
        fact(dl, "Locate", slot && slot.locate);
        fact(dl, "Fault", slot && slot.fault);
        fact(dl, "Identity", "slot:" + state.selected);

        const loc = $("da-locate");
        const flt = $("da-fault");

        loc.textContent = ledOn(slot, "locate") ? "Locate off" : "Locate on";
        loc.disabled = !slot || slot.locate === null;
        flt.textContent = ledOn(slot, "fault") ? "Fault off" : "Fault on";
        flt.disabled = !slot || slot.fault === null;
        const input = $("da-name");

        if (input.dataset.identity !== state.selected) {
            input.value = slot && slot.alias ? slot.alias : "";
            input.dataset.identity = state.selected;
        }
    }

    function render() {
        const box = $("da-panels");
        const data = state.data || { enclosures: [], chassis: [] };
        const slots = slotsById(data);

        box.textContent = "";
        drawChassis(box, data, slots);
        drawOthers(box, data);
        if (!(data.enclosures || []).length && !(data.chassis || []).length)
            box.appendChild(el("p", "da-empty-note", "This machine shows no SES enclosure and no PCIe slot."));
        drawDetails(slots);
    }

    function select(identity) {
        state.selected = identity;
        showAlert("da-action-error", "");
        showAlert("da-action-done", "");
        render();
        $("da-name").focus();
    }

    /* Read the machine again; calls while one runs make one more after it. */
    function refresh() {
        if (state.running) {
            state.again = true;
            return Promise.resolve();
        }
        state.running = true;
        return diskalias(["map", "-J"])
                .then(function (out) {
                    showAlert("da-error", "");
                    $("da-updated").textContent = "Read at " + new Date().toLocaleTimeString();
                    /* The same as last time: the page stays as it is (focus, hover). */
                    if (out === state.text)
                        return;
                    state.data = JSON.parse(out);
                    state.text = out;
                    render();
                })
                .catch(function (ex) {
                    showAlert("da-error", refusal(ex));
                })
                .finally(function () {
                    state.running = false;
                    document.body.dataset.reads = String(Number(document.body.dataset.reads || 0) + 1);
                    if (state.again) {
                        state.again = false;
                        refresh();
                    }
                });
    }

    function act(args, done) {
        showAlert("da-action-error", "");
        showAlert("da-action-done", "");
        return diskalias(args)
                .then(function () {
                    if (done)
                        showAlert("da-action-done", done);
                })
                .catch(function (ex) {
                    showAlert("da-action-error", refusal(ex));
                })
                .finally(refresh);
    }

    function led(which, identity, on) {
        return act([which].concat(on ? [] : ["--off"], ["slot:" + identity]));
    }

    function applyName(ev) {
        ev.preventDefault();
        const slot = state.data ? slotsById(state.data).get(state.selected) : null;
        const name = $("da-name").value.trim();

        if (!state.selected)
            return;
        if (!name) {
            showAlert("da-action-error", "Give the bay a name.");
            return;
        }
        if (slot && slot.alias === name)
            return;
        if (slot && slot.alias)
            act(["rename", slot.alias, name], "Renamed " + slot.alias + " to " + name + ".");
        else
            act(["set", name, "slot:" + state.selected], "Named the bay " + name + ".");
        $("da-name").dataset.identity = "";
    }

    /* udev's block and enclosure events: read again shortly after them. */
    function follow() {
        let pending = null;
        const proc = cockpit.spawn(["udevadm", "monitor", "--udev", "--subsystem-match=block",
            "--subsystem-match=enclosure"], { err: "ignore" });

        proc.stream(function () {
            if (!pending)
                pending = window.setTimeout(function () {
                    pending = null;
                    refresh();
                }, 300);
        });
        proc.catch(function () { /* no udev here: the poll does */ });
    }

    function poll() {
        window.clearInterval(state.timer);
        state.timer = window.setInterval(function () {
            if (!document.hidden)
                refresh();
        }, POLL_MS);
    }

    function init() {
        $("da-refresh").addEventListener("click", refresh);
        $("da-locate").addEventListener("click", function () {
            const slot = slotsById(state.data).get(state.selected);

            led("locate", state.selected, !ledOn(slot, "locate"));
        });
        $("da-fault").addEventListener("click", function () {
            const slot = slotsById(state.data).get(state.selected);

            led("fault", state.selected, !ledOn(slot, "fault"));
        });
        $("da-name-form").addEventListener("submit", applyName);
        document.addEventListener("visibilitychange", function () {
            if (!document.hidden)
                refresh();
        });
        refresh().then(function () {
            cockpit.transport.wait(function () {
                follow();
                poll();
            });
        });
    }

    document.addEventListener("DOMContentLoaded", init);
}());
