/*
 * selftest.js - run inside an hlodiff HTML page by tests/t0810 (injected
 * at the end of <body> by tests/html/check.py; the page itself never
 * carries it).
 *
 * Reads what the browser rendered (curves, peak markers, x axis ticks,
 * chart size, loaded resources), clicks the movers table's headers and
 * types into its filter box, then writes one JSON object into
 * a pre element (id hd-selftest) for check.py to judge.  It judges nothing itself
 * except the table behaviour, which only the browser can exercise.
 */
(function () {
	"use strict";
	var r = { errors: (window.__hdErrors || []).slice(), checks: {} };

	function curves() {
		var out = [];
		document.querySelectorAll("#timeline-chart path").forEach(function (p) {
			var b = p.getBBox();
			out.push({
				cls: p.getAttribute("class"),
				side: p.getAttribute("data-side"),
				space: p.getAttribute("data-space"),
				width: b.width,
				height: b.height,
				steps: (p.getAttribute("d").match(/H/g) || []).length
			});
		});
		return out;
	}

	/* Each marker's line x, and the x the axis ticks predict for the
	 * middle of its time step (linear fit through the first and last
	 * tick). */
	function markers() {
		/* schedules of different lengths: ticks at shares of each
		 * program (data-frac), a time is a share of its side's steps */
		var chart = document.getElementById("timeline-chart");
		var share = chart && chart.getAttribute("data-axis") === "share";
		var ticks = Array.prototype.map.call(
			document.querySelectorAll("#timeline-chart text.xtick"),
			function (t) {
				return { t: share ? Number(t.getAttribute("data-frac")) :
					 Number(t.textContent), x: Number(t.getAttribute("x")) };
			});
		var out = [];
		document.querySelectorAll("#timeline-chart .peak-marker").forEach(function (g) {
			var line = g.querySelector("line"), m = {
				side: g.getAttribute("data-side"),
				time: Number(g.getAttribute("data-time")),
				stated: g.getAttribute("data-stated"),
				x: Number(line.getAttribute("x1"))
			};
			if (ticks.length >= 2) {
				var a = ticks[0], b = ticks[ticks.length - 1];
				var at = share ? (m.time + 0.5) /
					Number(chart.getAttribute("data-span-" + m.side)) :
					m.time + 0.5;
				m.expect_x = a.x + (at - a.t) * (b.x - a.x) / (b.t - a.t);
			}
			out.push(m);
		});
		return out;
	}

	function columnOf(table, name) {
		var heads = table.tHead.rows[0].cells;
		for (var i = 0; i < heads.length; i++)
			if (heads[i].textContent.replace(/[\u25b2\u25bc]/g, "").trim() === name)
				return i;
		return -1;
	}

	function values(table, col, numeric) {
		return Array.prototype.map.call(table.tBodies[0].rows, function (row) {
			var c = row.cells[col];
			return numeric ? Number(c.getAttribute("data-v")) : c.textContent.toLowerCase();
		});
	}

	function sorted(list, dir) {
		for (var i = 1; i < list.length; i++)
			if ((dir > 0 && list[i - 1] > list[i]) || (dir < 0 && list[i - 1] < list[i]))
				return false;
		return true;
	}

	function visible(table) {
		return Array.prototype.filter.call(table.tBodies[0].rows, function (row) {
			return !row.hidden;
		});
	}

	function filterTo(box, text) {
		box.value = text;
		box.dispatchEvent(new Event("input"));
	}

	function table() {
		var t = document.getElementById("movers");
		if (!t) {
			r.checks.table = "absent";
			return;
		}
		var heads = t.tHead.rows[0].cells, delta = columnOf(t, "delta");
		var value = columnOf(t, "value"), box = document.getElementById("movers-filter");
		var count = document.getElementById("movers-count"), n = t.tBodies[0].rows.length;

		heads[delta].click();
		r.checks.sort_delta_desc = sorted(values(t, delta, true), -1) &&
			heads[delta].getAttribute("aria-sort") === "descending";
		heads[delta].click();
		r.checks.sort_delta_asc = sorted(values(t, delta, true), 1) &&
			heads[delta].getAttribute("aria-sort") === "ascending";
		heads[value].click();
		r.checks.sort_value_asc = sorted(values(t, value, false), 1);
		r.checks.rows_kept = t.tBodies[0].rows.length === n;

		var first = t.tBodies[0].rows[0].cells[value].textContent;
		filterTo(box, first.toUpperCase());
		var vis = visible(t);
		r.checks.filter_matches = vis.length >= 1 && vis.every(function (row) {
			return row.textContent.toLowerCase().indexOf(first.toLowerCase()) >= 0;
		});
		r.checks.filter_count = count.textContent === vis.length + " shown";
		filterTo(box, "no value is called this \u2603");
		r.checks.filter_none = visible(t).length === 0;
		filterTo(box, "");
		r.checks.filter_all = visible(t).length === n;
	}

	try {
		var svg = document.getElementById("timeline-chart"), rect;
		r.curves = curves();
		r.markers = markers();
		r.paths_outside_chart = document.querySelectorAll("path").length - r.curves.length;
		if (svg) {
			rect = svg.getBoundingClientRect();
			r.chart = { width: rect.width, height: rect.height };
		}
		rect = document.getElementById("peak-bars");
		r.bars = rect ? rect.querySelectorAll("rect.seg").length : 0;
		r.resources = performance.getEntriesByType("resource").map(function (e) {
			return e.name;
		});
		table();
	} catch (e) {
		r.errors.push("selftest: " + e);
	}
	var pre = document.createElement("pre");
	pre.id = "hd-selftest";
	pre.textContent = JSON.stringify(r);
	document.body.appendChild(pre);
})();
