"""Routes of the group pages. Each reads the group (locked when it writes), calls one
operation of `scorer.services.groups`, commits, renders."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, flash, g, redirect, render_template, request, url_for

from scorer.domain import GAMES, SYSTEMS, RuleError, group_commands
from scorer.domain.validation import whole_number
from scorer.extensions import NEW_TABLES, PDFS, desk
from scorer.i18n.catalogue import say, say_error
from scorer.i18n.formats import euros, one_decimal
from scorer.i18n.reader import file_language, in_each_language
from scorer.i18n.words import gettext as _
from scorer.i18n.words import ngettext
from scorer.live import conditional, live_etag
from scorer.reports import season
from scorer.services import groups, seasons
from scorer.stammtisch.blueprint import bp
from scorer.stammtisch.forms import ActionForm, RenameForm, group_form, rules_form
from scorer.store.errors import Conflict, NotFound
from scorer.web.downloads import csv_response
from scorer.web.forms import (
    attach_errors,
    errors_text,
    game_chooser,
    params_from_form,
    requested_rules,
    wrong_system,
)
from scorer.web.qr import qr_response


@bp.url_value_preprocessor
def load_group(endpoint: str | None, values: dict[str, Any] | None) -> None:
    g.group = None
    if values and "group_key" in values:
        key = values.pop("group_key")
        writes = request.method not in ("GET", "HEAD")
        try:
            g.group = (groups.group_for_write if writes else groups.get_group)(key)
        except NotFound:
            abort(404, _("This group does not exist. Is the link right?"))


@bp.url_defaults
def add_group_key(endpoint: str, values: dict[str, Any]) -> None:
    group = getattr(g, "group", None)
    wants_key = endpoint.startswith("stammtisch.") and endpoint != "stammtisch.new_group"
    if group is not None and "group_key" not in values and wants_key:
        values["group_key"] = group.key


@bp.errorhandler(Conflict)
def conflict(exc: Conflict):
    flash(say_error(exc), "error")
    return redirect(url_for("stammtisch.group"))


@bp.route("/stammtisch/neu", methods=["GET", "POST"])
@NEW_TABLES
def new_group():
    """Game and payment system first (the form reloads for them), then the group: name,
    members, how it settles, and the rules and amounts of its evenings."""
    source = request.form if request.method == "POST" else request.args
    game, system, sent = requested_rules(source)
    posted = request.method == "POST"
    form = group_form(game, system, formdata=request.form if posted else None)
    refused = wrong_system(game, sent) if posted else None
    if refused:
        form.form_errors.append(refused)
    elif posted and form.validate():
        members = [line.strip() for line in form.members.data.splitlines() if line.strip()]
        try:
            command = group_commands.found_group(
                name=form.name.data or "",
                game=game.id,
                system=system.id,
                params=params_from_form(form, game, system),
                members=members,
                carry_pot=form.carry_pot.data,
                settle=form.settle.data,
                share_by=form.share_by.data,
            )
            group = groups.create_group(command)
        except RuleError as exc:
            attach_errors(form, exc, prefix_map={"name": "name"})
        except ValueError as exc:
            form.form_errors.append(say_error(exc))
        else:
            return redirect(url_for("stammtisch.group", group_key=group.key))
    return render_template(
        "stammtisch/new.html",
        choose=game_chooser(game, system),
        form=form,
        game=game,
        system=system,
    ), (422 if posted else 200)


@bp.route("/s/<group_key>/regeln", methods=["GET", "POST"])
def rules():
    """The group's rules and amounts, changed between evenings: an evening keeps the rules
    it started with; the next one takes the new ones."""
    group = g.group
    source = request.form if request.method == "POST" else request.args
    game, system, sent = requested_rules(source, GAMES[group.game], group.system)
    posted = request.method == "POST"
    stored = group.params if system.id == group.system else {}
    # A group that carries its Haferl keeps it at the end of every evening (new_evening):
    # what happens to the Haferl at the end is not the group's to choose here.
    kept = {"pot_at_end"} if group.carry_pot else set()
    form = rules_form(game, system, stored, formdata=request.form if posted else None, skip=kept)
    refused = wrong_system(game, sent) if posted else None
    if refused:
        form.form_errors.append(refused)
    elif posted and form.validate():
        try:
            chosen = params_from_form(form, game, system, skip=kept)
            chosen |= {name: stored[name] for name in kept if name in stored}
            first = groups.change_rules(group, group_commands.change_rules(system.id, chosen))
        except RuleError as exc:
            attach_errors(form, exc)
        except ValueError as exc:
            form.form_errors.append(say_error(exc))
        else:
            flash(_("Rules saved: they apply from evening %(number)s on.", number=first), "info")
            return redirect(url_for("stammtisch.group"))
    return render_template(
        "stammtisch/rules.html",
        group=group,
        game=game,
        system=system,
        choose=game_chooser(game, system),
        form=form,
        changes=groups.rules_changes(group),
        long_date=desk().clock.long_date,
    ), (422 if posted else 200)


def checked_form() -> ActionForm:
    """The button's form, its CSRF token checked (400 when the page is stale)."""
    form = ActionForm()
    if not form.validate_on_submit():
        abort(400, _("The form has expired: please reload the page."))
    return form


def chosen_season() -> int:
    """The season `?season=N` asks for (1 up to the current one), else the current one:
    every season of the group stays readable after it is closed."""
    asked = request.args.get("season")
    if asked is None:
        return g.group.season
    number = whole_number(asked)
    if not isinstance(number, int) or not 1 <= number <= g.group.season:
        abort(404, _("This group has no season %(number)s.", number=asked[:12]))
    return number


def season_args(season: int) -> dict[str, int]:
    """`url_for` arguments for a page of `season` (none for the current one)."""
    return {} if season == g.group.season else {"season": season}


@bp.get("/s/<group_key>")
def group():
    """The group's page; it follows its evenings live (`304` while nothing changed)."""
    season = chosen_season()
    etag = live_etag("group", season, *groups.live_version(g.group))
    return conditional(etag, lambda: render_group(etag, season))


def render_group(etag: str, season: int) -> str:
    group = g.group
    evenings = groups.evenings(group)
    away = groups.retired(group)
    last_seating = list(evenings[-1].players) if evenings else []  # who sat at its end
    order = last_seating + [m for m in group.members if m not in last_seating]
    order = [m for m in order if m not in away]  # who stopped coming is not offered
    return render_template(
        "stammtisch/group.html",
        group=group,
        game=GAMES[group.game],
        evenings=evenings,
        season=season,
        in_season=season_args(season),
        closed_seasons=seasons.closed_seasons(group),
        away=away,
        rules_changes=groups.rules_changes(group),
        system=SYSTEMS[group.system],
        standings=seasons.standings(group, season),
        order=order,
        tonight=set(last_seating),
        collected=groups.collected_settlement(group) if group.settle == "collected" else None,
        form=ActionForm(),
        long_date=desk().clock.long_date,
        etag=etag,
        remembered=in_each_language(
            lambda: {
                "name": group.name,
                "summary": " · ".join(
                    [
                        _("Stammtisch"),
                        ", ".join(group.members),
                        ngettext("%(num)d evening", "%(num)d evenings", len(evenings)),
                    ]
                ),
            }
        ),
    )


@bp.post("/s/<group_key>/abend")
@NEW_TABLES
def new_evening():
    checked_form()
    newcomers = (request.form.get("new_players") or "")[:200].split(",")
    players = request.form.getlist("player") + [n.strip() for n in newcomers if n.strip()]
    dealer = request.form.get("first_dealer") or None
    try:
        command = group_commands.start_evening(
            players, first_dealer=dealer if dealer in players else None
        )
        session = groups.new_evening(g.group, command)
    except RuleError as exc:
        flash("; ".join(say(m) for ms in exc.fields.values() for m in ms), "error")
        return redirect(url_for("stammtisch.group"))
    return redirect(url_for("table.table", key=session.key))


@bp.post("/s/<group_key>/saison")
def close_season():
    form = checked_form()
    if request.form.get("bestaetigt") != "ja":
        # One more tap: the shares, before anything is paid out.
        shares = groups.planned_shares(g.group)
        final = [
            (line["player"], line["net_cents"] + shares.get(line["player"], 0))
            for line in seasons.standings(g.group, g.group.season)
        ]
        return render_template(
            "stammtisch/confirm_season.html",
            group=g.group,
            shares=shares,
            final=sorted(final, key=lambda line: -line[1]),  # with the shares, as it will end
            form=form,
        )
    shares = groups.close_season(g.group)
    given = ", ".join(f"{player} {euros(cents)}" for player, cents in shares.items())
    if given:
        flash(_("Season closed; the Haferl is shared out: %(shares)s.", shares=given), "info")
    else:
        flash(_("Season closed."), "info")
    return redirect(url_for("stammtisch.group"))


@bp.post("/s/<group_key>/bezahlt")
def close_settlement():
    checked_form()
    paid = groups.close_settlement(g.group)
    if not paid:
        flash(_("Nothing left to pay: every closed evening is paid."), "info")
    else:
        flash(
            ngettext(
                "%(num)d evening marked as paid.", "%(num)d evenings marked as paid.", len(paid)
            ),
            "info",
        )
    return redirect(url_for("stammtisch.group"))


@bp.get("/s/<group_key>/spieler/<name>")
def player(name: str):
    group = g.group
    season = chosen_season()
    try:
        stats, running = seasons.stats(group, name, season)
    except NotFound:
        abort(404, _("%(name)s does not belong to this group.", name=name))
    shown = stats.to_json()
    average = shown["average_points_as_declarer"]
    return render_template(
        "stammtisch/player.html",
        group=group,
        name=name,
        stats=shown,
        average=None if average is None else one_decimal(average),
        running=running,
        game=GAMES[group.game],
        season=season,
        in_season=season_args(season),
        away=name in groups.retired(group),
        rename=RenameForm(),
        form=ActionForm(),
    )


@bp.post("/s/<group_key>/spieler/<name>/name")
def rename(name: str):
    """A member's new name, everywhere in the group's history (`groups.change_member`)."""
    form = RenameForm()
    if not form.validate_on_submit():
        flash(errors_text(form), "error")
        return redirect(url_for("stammtisch.player", name=name))
    try:
        new = groups.change_member(g.group, group_commands.change_member(name, name=form.name.data))
    except NotFound:
        abort(404, _("%(name)s does not belong to this group.", name=name))
    except RuleError as exc:
        flash(say_error(exc), "error")
        return redirect(url_for("stammtisch.player", name=name))
    flash(_("%(old)s is now called %(new)s.", old=name, new=new), "info")
    return redirect(url_for("stammtisch.player", name=new))


@bp.post("/s/<group_key>/spieler/<name>/kommt")
def coming(name: str):
    """A member who stopped coming (kept in the history, not offered for a new evening),
    or who comes again."""
    checked_form()
    try:
        coming = request.form.get("kommt") == "ja"
        groups.change_member(g.group, group_commands.change_member(name, coming=coming))
    except NotFound:
        abort(404, _("%(name)s does not belong to this group.", name=name))
    return redirect(url_for("stammtisch.player", name=name))


@bp.get("/s/<group_key>/saison.svg")
def season_chart():
    """Each member's balance after each closed evening of the season."""
    group = g.group
    players, series = season.season_series(
        group.members, season.closed_evenings(group, chosen_season())
    )
    return Response(season.season_chart(players, series), mimetype="image/svg+xml")


@bp.get("/s/<group_key>/saison.pdf")
@PDFS
def season_pdf():
    """The season report, printed: standings, chart, the evenings, the Haferl's history, in
    the reader's language."""
    number = chosen_season()
    body = season.season_pdf(g.group, number, file_language(), desk=desk())
    return Response(
        body,
        mimetype="application/pdf",
        headers={"Content-Disposition": f'inline; filename="saison-{number}.pdf"'},
    )


@bp.get("/s/<group_key>/saison.csv")
def season_csv():
    """The season as a spreadsheet in the reader's language (`web.downloads.csv_response`)."""
    lang, number = file_language(), chosen_season()
    rows = season.season_csv_rows(g.group, number, desk().clock, lang=lang)
    return csv_response(rows, f'attachment; filename="saison-{number}.csv"', lang)


@bp.get("/s/<group_key>/qr.svg")
def qr():
    return qr_response(url_for("stammtisch.group", _external=True))


@bp.get("/s/<group_key>/spieler/<name>/verlauf.svg")
def player_chart(name: str):
    """A member's balance after each closed evening of the season."""
    group = g.group
    if name not in group.members:
        abort(404, _("%(name)s does not belong to this group.", name=name))
    _stats, running = seasons.stats(group, name, chosen_season())
    return Response(season.season_chart([name], {name: running}), mimetype="image/svg+xml")
