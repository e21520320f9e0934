//! The digest of a change's verbatim patch: what an approval binds (SPEC §6), so that an
//! approval holds for exactly one change — the same patch on top of another parent (a
//! rebase that leaves it unchanged) keeps it, anything else does not.
//!
//! The patch is made with fixed options whatever git is configured with: each file of the
//! change in path order, its old and new path (a rename's both), its old and new mode, and
//! its content change as git's default Myers diff finds it with no context lines (`-U0`):
//! every hunk's position and length on both sides, and the removed and added lines byte
//! for byte (whitespace and line ends included). A binary side (a NUL in its first 8,000
//! bytes) contributes its blob id instead of lines. Unlike `git patch-id`, nothing is
//! ignored: not whitespace, not line numbers. Fields are length-prefixed before they are
//! hashed, so that no two patches share a digest by how their fields run together.

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix_imara_diff::{Algorithm, Diff, InternedInput};
use sha2::{Digest, Sha256};

use super::tree::{Item, Objects};
use super::{Change, Entry, EntryMode, GitError, Repository, count, lines};

/// Feeds length-prefixed fields to a hash.
struct Fields(Sha256);

impl Fields {
    fn field(&mut self, bytes: &[u8]) {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    fn number(&mut self, value: u64) {
        self.field(value.to_string().as_bytes());
    }
}

impl Repository {
    /// `sha256:<hex>` of the verbatim patch of `change` (see the module's header).
    pub fn patch_digest(&self, change: &Change) -> Result<String, GitError> {
        let objects = self.objects();
        let mut fields = Fields(Sha256::new());
        fields.field(b"astrix-patch-v1");
        for file in &change.files {
            fields.field(b"file");
            fields.field(file.raw_from.as_deref().unwrap_or(&file.raw_path));
            fields.field(&file.raw_path);
            let mode =
                |entry: Option<&Entry>| u64::from(entry.map_or(0, |entry| entry.mode.octal()));
            fields.number(mode(file.old.as_ref()));
            fields.number(mode(file.new.as_ref()));
            let old = side(&objects, file.old.as_ref())?;
            let new = side(&objects, file.new.as_ref())?;
            if old.id.is_some() && old.id == new.id {
                continue;
            }
            let binary = [&old, &new]
                .iter()
                .any(|side| side.id.is_some() && lines::buffer_is_binary(&side.data));
            if binary {
                fields.field(b"binary");
                for side in [&old, &new] {
                    fields.field(
                        side.id
                            .map(|id| id.to_string())
                            .unwrap_or_default()
                            .as_bytes(),
                    );
                }
                continue;
            }
            hunks(&mut fields, &old.data, &new.data);
        }
        let digest = fields.0.finalize();
        let mut out = String::from("sha256:");
        for byte in digest {
            out.push_str(&format!("{byte:02x}"));
        }
        Ok(out)
    }
}

/// One side of a file: its content as git diffs it, and its blob id.
struct SideContent {
    id: Option<ObjectId>,
    data: Vec<u8>,
}

fn side(objects: &Objects<'_>, entry: Option<&Entry>) -> Result<SideContent, GitError> {
    let Some(entry) = entry else {
        return Ok(SideContent {
            id: None,
            data: Vec::new(),
        });
    };
    let id = ObjectId::from_hex(entry.id.as_bytes())
        .map_err(|err| GitError::corrupt(&entry.id, err.to_string()))?;
    let item = Item {
        mode: entry.mode.octal(),
        id,
    };
    let data = match count::non_blob_content(Some(&item)) {
        Some(data) => data,
        None if entry.mode == EntryMode::Submodule => Vec::new(),
        None => objects.blob(&id)?,
    };
    Ok(SideContent { id: Some(id), data })
}

/// The hunks of a text pair, each its position and length on both sides and its lines.
fn hunks(fields: &mut Fields, old: &[u8], new: &[u8]) {
    let input = InternedInput::new(old, new);
    let diff = Diff::compute(Algorithm::Myers, &input);
    for hunk in diff.hunks() {
        fields.field(b"hunk");
        fields.number(u64::from(hunk.before.start));
        fields.number(u64::from(hunk.before.end - hunk.before.start));
        fields.number(u64::from(hunk.after.start));
        fields.number(u64::from(hunk.after.end - hunk.after.start));
        for token in &input.before[hunk.before.start as usize..hunk.before.end as usize] {
            fields.field(b"-");
            fields.field(input.interner[*token].as_bytes());
        }
        for token in &input.after[hunk.after.start as usize..hunk.after.end as usize] {
            fields.field(b"+");
            fields.field(input.interner[*token].as_bytes());
        }
    }
}
