//! `astrix log`: the audit log of the gate's decisions.

use crate::audit::Source;
use crate::audit::{AuditEntry, AuditLog};
use crate::cli::{Format, LogArgs, LogDecision, LogSource};
use crate::context::{Context, ignore_broken_pipe};
use crate::exit::ExitStatus;
use crate::gate::astrix_dir;
use crate::git::Repository;
use crate::report::write_json;
use crate::time::{now_unix, parse_duration, rfc3339};

/// Runs `astrix log`.
pub fn run(args: &LogArgs, ctx: &mut Context<'_>) -> anyhow::Result<ExitStatus> {
    let since = args.since.as_deref().map(since).transpose()?;
    let repo = Repository::open(&ctx.cwd, &ctx.env)?;
    let log = AuditLog::new(&astrix_dir(&repo));
    // Lines that are not entries are always shown: a filter must not hide a damaged log.
    let mut entries: Vec<_> = log
        .read(None)?
        .into_iter()
        .filter(|entry| {
            entry
                .as_ref()
                .map_or(true, |entry| keeps(args, since.as_deref(), entry))
        })
        .collect();
    if let Some(count) = args.count {
        entries.drain(..entries.len().saturating_sub(count));
    }
    match args.format.format {
        Format::Json => {
            let values: Vec<serde_json::Value> = entries
                .iter()
                .map(|entry| match entry {
                    Ok(entry) => serde_json::to_value(entry).unwrap_or_default(),
                    Err(error) => serde_json::json!({ "unreadable": error }),
                })
                .collect();
            ignore_broken_pipe(write_json(ctx.stdout, &values))?;
        }
        Format::Text => {
            let style = ctx.stdout_style;
            let out = &mut *ctx.stdout;
            let mut write = || -> std::io::Result<()> {
                if entries.is_empty() {
                    if args.actor.is_some()
                        || args.decision.is_some()
                        || args.source.is_some()
                        || since.is_some()
                    {
                        writeln!(
                            out,
                            "no decision recorded in {} matches the filters",
                            log.path().display()
                        )?;
                    } else {
                        writeln!(out, "no decisions recorded in {}", log.path().display())?;
                    }
                }
                for entry in &entries {
                    let entry = match entry {
                        Ok(entry) => entry,
                        Err(error) => {
                            writeln!(out, "{} {error}", style.yellow().paint("unreadable entry:"))?;
                            continue;
                        }
                    };
                    let (word, paint) = match (entry.decision.as_str(), entry.allowed) {
                        ("allow", _) => ("allowed", style.green()),
                        ("require_approval", true) => ("approved", style.green()),
                        ("require_approval", false) => ("held", style.yellow()),
                        ("deny", _) => ("denied", style.red()),
                        (other, _) => (other, style.red()),
                    };
                    // Painted text ignores a width: pad outside the colour codes.
                    let decision = format!(
                        "{}{}",
                        paint.paint(word),
                        " ".repeat(8_usize.saturating_sub(word.chars().count()))
                    );
                    writeln!(
                        out,
                        "{}  {:<21}  {decision}  {}{} -> {}{}  {} file{}{}",
                        entry.time,
                        entry.hook,
                        entry.actor,
                        entry
                            .actor_id
                            .as_deref()
                            .map(|id| format!(" ({id})"))
                            .unwrap_or_default(),
                        entry.target,
                        entry
                            .branch
                            .as_deref()
                            .map(|branch| format!(" ({branch})"))
                            .unwrap_or_default(),
                        entry.files,
                        if entry.files == 1 { "" } else { "s" },
                        if entry.rules.is_empty() {
                            String::new()
                        } else {
                            format!("  [{}]", entry.rules.join(", "))
                        }
                    )?;
                    if let Some(call) = &entry.tool_call {
                        writeln!(out, "    {}: {}", call.tool, call.subject)?;
                    }
                }
                Ok(())
            };
            ignore_broken_pipe(write())?;
        }
    }
    Ok(ExitStatus::Allowed)
}

/// Whether the filters of `args` keep `entry`; `since` is an RFC 3339 UTC time or date,
/// which compares as text with the log's times (all `YYYY-MM-DDTHH:MM:SSZ`).
fn keeps(args: &LogArgs, since: Option<&str>, entry: &AuditEntry) -> bool {
    let actor = args
        .actor
        .as_deref()
        .is_none_or(|actor| entry.actor == actor || entry.actor_id.as_deref() == Some(actor));
    let decision = args.decision.is_none_or(|wanted| {
        let held = entry.decision == "require_approval";
        match wanted {
            LogDecision::Allow => entry.decision == "allow",
            LogDecision::RequireApproval => held,
            LogDecision::Held => held && !entry.allowed,
            LogDecision::Approved => held && entry.allowed,
            LogDecision::Deny => entry.decision == "deny",
            LogDecision::Error => entry.decision == "error",
        }
    });
    let source = args.source.is_none_or(|wanted| {
        entry.source()
            == match wanted {
                LogSource::Commit => Source::Commit,
                LogSource::ToolCall => Source::ToolCall,
                LogSource::Command => Source::Command,
            }
    });
    actor && decision && source && since.is_none_or(|since| entry.time.as_str() >= since)
}

/// `--since`: a date, a UTC time, or a span back from now, as the UTC text the log's
/// times compare with.
fn since(text: &str) -> anyhow::Result<String> {
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    let number = |piece: &str| piece.parse::<u32>().unwrap_or(u32::MAX);
    // A day that exists: `2026-02-30` or `2026-13-01` would compare as some other time.
    let date = |part: &str| {
        let pieces: Vec<&str> = part.split('-').collect();
        if !(pieces.len() == 3
            && pieces[0].len() == 4
            && pieces[1].len() == 2
            && pieces[2].len() == 2
            && pieces.iter().all(|piece| digits(piece)))
        {
            return false;
        }
        let (year, month, day) = (number(pieces[0]), number(pieces[1]), number(pieces[2]));
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => 0,
        };
        year > 0 && (1..=days).contains(&day)
    };
    let time = |part: &str| {
        let pieces: Vec<&str> = part.split(':').collect();
        pieces.len() == 3
            && pieces.iter().all(|piece| piece.len() == 2 && digits(piece))
            && number(pieces[0]) < 24
            && number(pieces[1]) < 60
            && number(pieces[2]) < 60
    };
    if date(text) {
        return Ok(text.to_owned());
    }
    if let Some((day, clock)) = text.split_once('T')
        && let Some(clock) = clock.strip_suffix('Z')
        && date(day)
        && time(clock)
    {
        return Ok(text.to_owned());
    }
    // A span names its unit, with nothing around it: a bare `2026` would otherwise be read
    // as seconds when the year was meant.
    let unit = text.strip_suffix(['s', 'm', 'h', 'd']);
    if let Some(count) = unit
        && digits(count)
    {
        return match parse_duration(text) {
            Some(span) => {
                let back = i64::try_from(span.as_secs()).unwrap_or(i64::MAX);
                Ok(rfc3339(now_unix().saturating_sub(back)))
            }
            None => anyhow::bail!(
                "`--since {text}` is a span too long to count back from now; give a date instead (`2026-11-30`)"
            ),
        };
    }
    // What was meant, to say what is wrong with it: `YYYY-MM-DD` in shape, maybe followed
    // by a time.
    let shaped = |part: &str| {
        part.len() == 10
            && part.as_bytes()[4] == b'-'
            && part.as_bytes()[7] == b'-'
            && [&part[..4], &part[5..7], &part[8..]]
                .iter()
                .all(|piece| digits(piece))
    };
    let day = text.get(..10).filter(|day| shaped(day));
    let clock = text
        .get(10..)
        .and_then(|rest| rest.strip_prefix('T'))
        .and_then(|rest| rest.strip_suffix('Z'));
    let why = if digits(text) {
        "a number without a unit; a span names one (`90m`, `2h`, `7d`, `30s`), a date is written `2026-11-30`"
    } else if day.is_some_and(|day| !date(day)) {
        "not a day that exists (months 01–12, days 01 to the month's last)"
    } else if day.is_some() && clock.is_some_and(|clock| clock.len() == 8) {
        "not a time that exists (hours 00–23, minutes and seconds 00–59)"
    } else if day.is_some() {
        "not a UTC time as the log writes them: `2026-11-30T10:00:00Z` (upper-case `T` and `Z`, with seconds, no offset)"
    } else {
        "not a date (`2026-11-30`), a UTC time (`2026-11-30T10:00:00Z`) or a span back from now (`90m`, `2h`, `7d`)"
    };
    anyhow::bail!("`--since {text}` is {why}")
}
