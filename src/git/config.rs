//! Git configuration layered the way git reads it, from an [`EnvSnapshot`] rather than the
//! process environment: system, global (XDG and `~/.gitconfig`, or `GIT_CONFIG_GLOBAL`),
//! the repository's own files (read by gix), then `GIT_CONFIG_COUNT` pairs and `git -c`
//! values (`GIT_CONFIG_PARAMETERS`).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use gix::bstr::BStr;
use gix::config::{File, Source, file::Metadata};

use super::error::{GitError, message};
use crate::env::{
    EnvSnapshot, GIT_CONFIG_COUNT, GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM, GIT_CONFIG_PARAMETERS,
    GIT_CONFIG_SYSTEM, HOME, XDG_CONFIG_HOME,
};

/// Puts the system and global files below, and the environment's values above, the
/// repository configuration that gix already loaded.
pub(crate) fn layer(repo: &mut gix::Repository, env: &EnvSnapshot) -> Result<(), GitError> {
    let lower = global_files(env)?;
    let upper = environment_values(env)?;
    let mut config = repo.config_snapshot_mut();
    let local = std::mem::replace(&mut *config, lower);
    config.append(local).map_err(|err| config_error(&err))?;
    config.append(upper).map_err(|err| config_error(&err))?;
    config.commit().map_err(|err| config_error(&err))?;
    Ok(())
}

fn config_error(err: &gix::Error) -> GitError {
    GitError::Config {
        message: message(err),
    }
}

fn non_empty<'a>(env: &'a EnvSnapshot, name: &str) -> Option<&'a OsStr> {
    env.get_os(name).filter(|value| !value.is_empty())
}

/// git's boolean spelling for environment switches such as `GIT_CONFIG_NOSYSTEM`.
fn env_true(env: &EnvSnapshot, name: &str) -> bool {
    env.get(name).is_some_and(|value| {
        matches!(
            value.to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on"
        )
    })
}

fn global_files(env: &EnvSnapshot) -> Result<File, GitError> {
    let home = non_empty(env, HOME).map(PathBuf::from);
    let mut files: Vec<Metadata> = Vec::new();
    if !env_true(env, GIT_CONFIG_NOSYSTEM) {
        let system = non_empty(env, GIT_CONFIG_SYSTEM)
            .map_or_else(|| PathBuf::from("/etc/gitconfig"), PathBuf::from);
        files.push(Metadata::from(Source::System).at(system));
    }
    if let Some(global) = env.get_os(GIT_CONFIG_GLOBAL) {
        if !global.is_empty() {
            files.push(Metadata::from(Source::User).at(PathBuf::from(global)));
        }
    } else {
        let xdg = non_empty(env, XDG_CONFIG_HOME)
            .map(|xdg| Path::new(xdg).join("git").join("config"))
            .or_else(|| home.as_ref().map(|home| home.join(".config/git/config")));
        files.extend(xdg.map(|path| Metadata::from(Source::Git).at(path)));
        files.extend(
            home.as_ref()
                .map(|home| Metadata::from(Source::User).at(home.join(".gitconfig"))),
        );
    }
    let options = gix::config::file::init::Options {
        includes: gix::config::file::includes::Options::follow_without_conditional(home.as_deref()),
        lossy: true,
        ignore_io_errors: false,
    };
    let mut buf = Vec::new();
    let file = File::from_paths_metadata_buf(&mut files.into_iter(), &mut buf, false, options)
        .map_err(|err| config_error(&err))?;
    Ok(file.unwrap_or_else(|| File::new(Metadata::from(Source::User))))
}

fn environment_values(env: &EnvSnapshot) -> Result<File, GitError> {
    let mut file = File::new(Metadata::from(Source::Env));
    if let Some(count) = env.get(GIT_CONFIG_COUNT).filter(|count| !count.is_empty()) {
        let count: usize = count.trim().parse().map_err(|_| GitError::Config {
            message: format!("`{GIT_CONFIG_COUNT}` is `{count}`, not a number"),
        })?;
        for n in 0..count {
            let key_name = format!("GIT_CONFIG_KEY_{n}");
            let key = env.get(&key_name).ok_or_else(|| GitError::Config {
                message: format!("`{key_name}` is missing but `{GIT_CONFIG_COUNT}` is {count}"),
            })?;
            let value = env
                .get(&format!("GIT_CONFIG_VALUE_{n}"))
                .unwrap_or_default();
            set(&mut file, key, Some(value))?;
        }
    }
    if let Some(parameters) = env.get(GIT_CONFIG_PARAMETERS) {
        let parsed = parse_parameters(parameters).ok_or_else(|| GitError::Config {
            message: format!("`{GIT_CONFIG_PARAMETERS}` is malformed"),
        })?;
        for (key, value) in parsed {
            set(&mut file, &key, value.as_deref())?;
        }
    }
    Ok(file)
}

/// Sets `section[.subsection].name` to `value` (`None`: the implicit boolean true).
fn set(file: &mut File, key: &str, value: Option<&str>) -> Result<(), GitError> {
    let invalid = || GitError::Config {
        message: format!("`{key}` is not a valid configuration key"),
    };
    let (section, rest) = key.split_once('.').ok_or_else(invalid)?;
    let (subsection, name) = match rest.rsplit_once('.') {
        Some((subsection, name)) => (Some(subsection), name),
        None => (None, rest),
    };
    if section.is_empty() || name.is_empty() {
        return Err(invalid());
    }
    let subsection: Option<&BStr> = subsection.map(Into::into);
    // An implicit true is written as the plain value `true`, which git reads the same way.
    file.set_raw_value_by(section, subsection, name, value.unwrap_or("true"))
        .map_err(|_| invalid())?;
    Ok(())
}

/// Parses git's `GIT_CONFIG_PARAMETERS`: space-separated single-quoted `'key'='value'` (or the
/// older `'key=value'`) items, where `'\''` stands for a quote.
fn parse_parameters(text: &str) -> Option<Vec<(String, Option<String>)>> {
    let mut items = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(char::is_ascii_whitespace).is_some() {}
        if chars.peek().is_none() {
            return Some(items);
        }
        let first = quoted(&mut chars)?;
        if chars.next_if_eq(&'=').is_some() {
            let value = if chars.peek() == Some(&'\'') {
                Some(quoted(&mut chars)?)
            } else {
                None
            };
            items.push((first, value));
        } else {
            match first.split_once('=') {
                Some((key, value)) => items.push((key.to_owned(), Some(value.to_owned()))),
                None => items.push((first, None)),
            }
        }
    }
}

fn quoted(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<String> {
    let mut out = String::new();
    chars.next_if_eq(&'\'')?;
    loop {
        match chars.next()? {
            '\'' => {
                // `'\''` continues the string with a literal quote.
                if chars.next_if_eq(&'\\').is_some() {
                    let quote = chars.next()?;
                    out.push(quote);
                    chars.next_if_eq(&'\'')?;
                } else {
                    return Some(out);
                }
            }
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_git_config_parameters() {
        assert_eq!(
            parse_parameters("'diff.renames'='copies' 'user.name'='it'\\''s me'"),
            Some(vec![
                ("diff.renames".to_owned(), Some("copies".to_owned())),
                ("user.name".to_owned(), Some("it's me".to_owned())),
            ])
        );
        assert_eq!(
            parse_parameters("'diff.renames=false' 'core.bare'"),
            Some(vec![
                ("diff.renames".to_owned(), Some("false".to_owned())),
                ("core.bare".to_owned(), None),
            ])
        );
        assert_eq!(parse_parameters(""), Some(vec![]));
        assert_eq!(parse_parameters("'unterminated"), None);
    }

    #[test]
    fn environment_pairs_are_applied() {
        let env = EnvSnapshot::from_pairs([
            ("GIT_CONFIG_COUNT", "2"),
            ("GIT_CONFIG_KEY_0", "diff.renames"),
            ("GIT_CONFIG_VALUE_0", "false"),
            ("GIT_CONFIG_KEY_1", "remote.my.origin.url"),
            ("GIT_CONFIG_VALUE_1", "x"),
        ]);
        let file = environment_values(&env).unwrap();
        assert_eq!(file.string("diff.renames").unwrap(), "false");
        assert_eq!(file.string("remote.my.origin.url").unwrap(), "x");
    }

    #[test]
    fn a_missing_key_is_an_error() {
        let env = EnvSnapshot::from_pairs([("GIT_CONFIG_COUNT", "1")]);
        assert!(environment_values(&env).is_err());
    }
}
