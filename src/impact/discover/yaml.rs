//! The part of YAML that `pnpm-workspace.yaml` uses for its `packages` list: a top-level
//! `packages:` key with a block sequence (`- 'packages/*'`) or a flow sequence
//! (`['a', "b"]`) of plain, single- or double-quoted strings, and comments. Other top-level
//! keys (`catalog:`, `onlyBuiltDependencies:`, …) and everything nested in them are skipped.
//! Anything else in the `packages` value is reported, never guessed at.

/// The `packages` list of a `pnpm-workspace.yaml`; `Ok(None)` when the key is absent.
pub(crate) fn packages(text: &str) -> Result<Option<Vec<String>>, String> {
    let mut lines = text.lines().enumerate().peekable();
    while let Some((number, line)) = lines.next() {
        let line = strip_comment(line);
        if line.trim().is_empty() || line.starts_with([' ', '\t']) {
            continue;
        }
        let Some(rest) = line.strip_prefix("packages:") else {
            continue;
        };
        let rest = rest.trim();
        if !rest.is_empty() {
            let inner = rest
                .strip_prefix('[')
                .and_then(|rest| rest.strip_suffix(']'))
                .ok_or_else(|| {
                    format!(
                        "line {}: `packages` is neither a list nor a `[…]` sequence",
                        number + 1
                    )
                })?;
            return flow_items(inner, number + 1).map(Some);
        }
        let mut items = Vec::new();
        while let Some((number, line)) = lines.peek().copied() {
            let content = strip_comment(line);
            let trimmed = content.trim();
            if trimmed.is_empty() {
                lines.next();
                continue;
            }
            let indented = content.starts_with([' ', '\t']);
            let Some(item) = trimmed.strip_prefix('-') else {
                if indented {
                    return Err(format!(
                        "line {}: expected a `- 'pattern'` item in `packages`",
                        number + 1
                    ));
                }
                break;
            };
            if !item.is_empty() && !item.starts_with([' ', '\t']) {
                break;
            }
            items.push(scalar(item.trim(), number + 1)?);
            lines.next();
        }
        return Ok(Some(items));
    }
    Ok(None)
}

/// The line without a `#` comment (a `#` at the start or after a space, outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    let mut previous = ' ';
    for (position, ch) in line.char_indices() {
        match quote {
            Some(open) if ch == open => quote = None,
            None if ch == '\'' || ch == '"' => quote = Some(ch),
            None if ch == '#' && previous.is_whitespace() => return &line[..position],
            Some(_) | None => {}
        }
        previous = ch;
    }
    line
}

fn flow_items(inner: &str, line: usize) -> Result<Vec<String>, String> {
    let mut items = Vec::new();
    let mut current = String::new();
    let mut quote = None;
    for ch in inner.chars() {
        match quote {
            Some(open) if ch == open => {
                quote = None;
                current.push(ch);
            }
            Some(_) => current.push(ch),
            None if ch == ',' => {
                items.push(std::mem::take(&mut current));
            }
            None => {
                if ch == '\'' || ch == '"' {
                    quote = Some(ch);
                }
                current.push(ch);
            }
        }
    }
    items.push(current);
    items
        .iter()
        .map(|item| item.trim())
        .filter(|item| !item.is_empty())
        .map(|item| scalar(item, line))
        .collect()
}

/// A plain, `'single'` (`''` escapes a quote) or `"double"` (backslash escapes) scalar.
fn scalar(text: &str, line: usize) -> Result<String, String> {
    let bad = || format!("line {line}: cannot read `{text}` as a pattern");
    if let Some(inner) = text.strip_prefix('\'') {
        let inner = inner.strip_suffix('\'').ok_or_else(bad)?;
        return Ok(inner.replace("''", "'"));
    }
    if let Some(inner) = text.strip_prefix('"') {
        let inner = inner.strip_suffix('"').ok_or_else(bad)?;
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(ch) = chars.next() {
            if ch == '\\' {
                match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some(other) => out.push(other),
                    None => return Err(bad()),
                }
            } else {
                out.push(ch);
            }
        }
        return Ok(out);
    }
    if text.is_empty() || text.starts_with(['[', '{', '&', '*', '|', '>', '!', '%', '@', '`']) {
        return Err(bad());
    }
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! yaml_cases {
        ($($name:ident: $text:expr => $expected:expr;)*) => {
            $(
                #[test]
                fn $name() {
                    let expected: Result<Option<Vec<&str>>, ()> = $expected;
                    let found = packages($text);
                    match expected {
                        Ok(list) => assert_eq!(
                            found.unwrap(),
                            list.map(|items| items.iter().map(|s| s.to_string()).collect())
                        ),
                        Err(()) => assert!(found.is_err(), "{found:?}"),
                    }
                }
            )*
        };
    }

    yaml_cases! {
        block_list: "packages:\n  - 'packages/*'\n  - \"apps/**\"\n  - tools\n" => Ok(Some(vec!["packages/*", "apps/**", "tools"]));
        comments_and_blank_lines: "# pnpm\npackages:   # the members\n\n  - 'a/*' # first\n  # skip\n  - '!**/test/**'\n" => Ok(Some(vec!["a/*", "!**/test/**"]));
        unindented_items: "packages:\n- a\n- b\ncatalog:\n  react: ^18\n" => Ok(Some(vec!["a", "b"]));
        other_keys_first: "catalog:\n  packages: nope\npackages:\n  - x\n" => Ok(Some(vec!["x"]));
        flow_sequence: "packages: ['a/*', \"b, c\", d]\n" => Ok(Some(vec!["a/*", "b, c", "d"]));
        quotes_escape: "packages:\n  - 'it''s'\n  - \"x\\\"y\"\n" => Ok(Some(vec!["it's", "x\"y"]));
        absent: "onlyBuiltDependencies:\n  - esbuild\n" => Ok(None);
        empty_list: "packages:\ncatalog: {}\n" => Ok(Some(vec![]));
        mapping_is_refused: "packages:\n  nested: x\n" => Err(());
        anchor_is_refused: "packages:\n  - *ref\n" => Err(());
        unclosed_quote: "packages:\n  - 'a\n" => Err(());
    }
}
