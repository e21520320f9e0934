//! `git rev-list TIP ^HIDDEN…`: the commits one tip has and none of the others has.
//!
//! The question is asked on every branch update the backstop judges and by `astrix ci` for
//! every pull request, in repositories of 100,000 commits and more, so the walk must not read
//! the hidden side's whole history; and it decides what is judged, so it must never leave a
//! commit out. Without generation numbers (the commit-graph file is never read: anyone who
//! can write `.git` can forge it), the only cheap order is the committer date, which nothing
//! forces to go forwards. This is git's own answer, `limit_list` in git's `revision.c`,
//! followed step for step (the same queue order, the same propagation of "uninteresting",
//! the same five commits of slop), with one more condition for stopping:
//!
//! - Commits leave a queue newest first (equal dates in the order they were queued). A commit
//!   that a hidden tip reaches is *uninteresting*, and so is everything it reaches, also
//!   commits already seen or already listed.
//! - The walk stops when every queued commit is uninteresting and, for five commits in a row,
//!   the newest queued commit is older than the last commit listed (git's rule) **and older,
//!   by more than the largest clock skew seen so far, than every listed commit that is still
//!   interesting** (astrix's). Before stopping, the queued commits' parents are read, so that
//!   a skewed clock right below where the walk would stop is seen too.
//!
//! The skew is a parent dated after its child: `date(parent) - date(child)` over the commits
//! read. A listed commit `L` can still be reached from a queued commit `Q` only along a path
//! of commits not yet popped, and dates go down along a path except where a clock was skewed;
//! so `date(L) > date(Q) + skew` rules `L` out as long as no path through the history not yet
//! read climbs by more than the largest skew already seen.
//!
//! What this guarantees:
//! - **Never fewer.** A commit is left out only when a hidden tip was seen to reach it.
//!   When the walk stops, nothing queued is interesting, so every commit the tip has and the
//!   hidden tips lack has been listed.
//! - **Never more than git.** The walk pops the commits git pops, in git's order, and stops
//!   no earlier; walking further only ever marks more commits, and marks are never wrong.
//! - **Exact** unless the history below where the walk stopped climbs, along one path, by more
//!   than the largest skew the walk read (with dates that go forwards, always). Skew among the
//!   commits read costs a longer walk (by as much history as that skew spans: rails' worst
//!   skew near its tip, 34 days, costs a few hundred commits), not a wrong answer; a larger
//!   skew deeper down, in history never read, can leave an extra commit listed (judged as one
//!   of the range's: a false hold, never a missed commit). Exact without any assumption would
//!   mean reading the hidden side's whole history every time: without generation numbers
//!   (and the commit-graph file that stores them is not trusted, above), no date or count
//!   bounds where a path below can lead.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use gix::ObjectId;

use super::GitError;
use super::tree::Objects;

/// git's `SLOP`: how many uninteresting commits past the point where the walk could stop it
/// goes on for, to catch a little clock skew.
const SLOP: u32 = 5;

/// git's `TIME_MAX`: the "last listed date" before anything is listed.
const TIME_MAX: u64 = u64::MAX;

/// One commit the walk knows of: seen as a parent, and read when it was queued.
#[expect(
    clippy::struct_excessive_bools,
    reason = "git's object flags, one field each, as `revision.c` names them"
)]
struct Node {
    id: ObjectId,
    /// The parents (indices into [`Walk::nodes`]), `None` until the commit is read.
    parents: Option<Vec<usize>>,
    /// The committer date as git reads it for ordering ([`commit_date`]).
    date: u64,
    uninteresting: bool,
    /// Queued once (git's `SEEN`).
    seen: bool,
    /// Taken from the queue (git's `ADDED`).
    popped: bool,
    /// Listed as the tip's (it may become uninteresting afterwards).
    listed: bool,
}

/// The commits `tip` has and none of `hidden` has, and their parents.
pub(crate) struct Listing {
    /// The commits, in no particular order.
    pub(crate) commits: Vec<ObjectId>,
    /// The parents of every commit read (at least those of [`Self::commits`]).
    pub(crate) parents: gix::hashtable::HashMap<ObjectId, Vec<ObjectId>>,
    /// How many commits were read.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "the tests check how far the walk reads")
    )]
    pub(crate) read: usize,
}

struct Walk<'o, 'r> {
    objects: &'o Objects<'r>,
    nodes: Vec<Node>,
    index: gix::hashtable::HashMap<ObjectId, usize>,
    /// Newest first; equal dates first come, first served.
    queue: BinaryHeap<(u64, Reverse<u64>, usize)>,
    queued: u64,
    /// Queued (not yet popped) commits that are not uninteresting.
    interesting_queued: usize,
    /// Dates of listed commits that are still interesting, with their counts.
    listed_dates: BTreeMap<u64, usize>,
    buffer: Vec<u8>,
    read: usize,
    /// The most a commit read so far is dated before one of its parents (0: dates go
    /// forwards).
    skew: u64,
}

/// Whether `target` is on the first-parent line of one of `hidden`, or a parent of a commit
/// there (a merge's other side), looked for at most `budget` commits down in all: then the
/// hidden tips have everything `target` has ([`commits_not_in`] would list nothing, and
/// `target` is an ancestor of the tip). A proof when it answers yes, and cheap where the
/// exact walks are not: a branch made at `main~3` beside a branch of newer commits, which
/// `commits_not_in` (git's order, newest first) reads in full before it reaches `main`; a
/// commit on top of another among commits of one date (a cherry-pick's, made within a
/// second), where a merge base reads the whole branch. The tips are tried nearest
/// `target`'s date first, each down to that date; a no, a commit that cannot be read or dates
/// that lie only leave the question to the exact walk.
pub(crate) fn on_first_parent_line(
    objects: &Objects<'_>,
    target: ObjectId,
    hidden: &[ObjectId],
    mut budget: usize,
) -> bool {
    let mut buffer = Vec::new();
    let mut header = |id: &ObjectId| -> Option<(Vec<ObjectId>, u64)> {
        objects
            .read_into(id, gix::object::Kind::Commit, &mut buffer)
            .ok()?;
        commit_header(&buffer, id.kind())
    };
    if hidden.contains(&target) {
        return true;
    }
    let Some((_, target_date)) = header(&target) else {
        return false;
    };
    let mut tips: Vec<(u64, ObjectId)> = Vec::with_capacity(hidden.len());
    for tip in hidden {
        if budget == 0 {
            return false;
        }
        budget -= 1;
        if let Some((parents, date)) = header(tip)
            && date >= target_date
        {
            if parents.contains(&target) {
                return true;
            }
            if let Some(first) = parents.first() {
                tips.push((date, *first));
            }
        }
    }
    tips.sort_by_key(|(date, _)| *date);
    for (_, mut id) in tips {
        loop {
            if id == target {
                return true;
            }
            if budget == 0 {
                return false;
            }
            budget -= 1;
            match header(&id) {
                Some((parents, date)) if date >= target_date => {
                    if parents.contains(&target) {
                        return true;
                    }
                    match parents.first() {
                        Some(first) => id = *first,
                        None => break,
                    }
                }
                _ => break,
            }
        }
    }
    false
}

/// `git rev-list tip ^hidden…` (see the module header). A hidden tip's history may be
/// incomplete (a shallow clone): what cannot be read there is skipped, as git skips it. A
/// missing commit on the tip's side is an error: it could be one of the tip's.
pub(crate) fn commits_not_in(
    objects: &Objects<'_>,
    tip: ObjectId,
    hidden: &[ObjectId],
) -> Result<Listing, GitError> {
    let mut walk = Walk {
        skew: 0,
        objects,
        nodes: Vec::new(),
        index: gix::hashtable::HashMap::default(),
        queue: BinaryHeap::new(),
        queued: 0,
        interesting_queued: 0,
        listed_dates: BTreeMap::new(),
        buffer: Vec::new(),
        read: 0,
    };
    // git's `prepare_revision_walk`: the tips in the order given (`tip`, then each
    // `^hidden`), each read, a hidden one marking what it reaches among the commits read so
    // far; then queued by date (equal dates in that order).
    let mut tips = vec![walk.node(tip)];
    for id in hidden {
        let node = walk.node(*id);
        walk.nodes[node].uninteresting = true;
        tips.push(node);
    }
    for node in tips {
        walk.parse(node)?;
        if walk.nodes[node].uninteresting {
            walk.mark_parents_uninteresting(node);
        }
        if !walk.nodes[node].seen {
            walk.enqueue(node);
        }
    }
    walk.run()?;
    let commits = walk
        .nodes
        .iter()
        .filter(|node| node.listed && !node.uninteresting)
        .map(|node| node.id)
        .collect();
    let parents = walk
        .nodes
        .iter()
        .filter_map(|node| {
            let parents = node.parents.as_ref()?;
            Some((
                node.id,
                parents
                    .iter()
                    .map(|parent| walk.nodes[*parent].id)
                    .collect(),
            ))
        })
        .collect();
    Ok(Listing {
        commits,
        parents,
        read: walk.read,
    })
}

impl Walk<'_, '_> {
    /// The node of `id`, created (unread) when it is new.
    fn node(&mut self, id: ObjectId) -> usize {
        if let Some(node) = self.index.get(&id) {
            return *node;
        }
        let node = self.nodes.len();
        self.nodes.push(Node {
            id,
            parents: None,
            date: 0,
            uninteresting: false,
            seen: false,
            popped: false,
            listed: false,
        });
        self.index.insert(id, node);
        node
    }

    /// Reads the commit of `node` (once): its parents and date.
    fn parse(&mut self, node: usize) -> Result<(), GitError> {
        if self.nodes[node].parents.is_some() {
            return Ok(());
        }
        let id = self.nodes[node].id;
        self.objects
            .read_into(&id, gix::object::Kind::Commit, &mut self.buffer)?;
        self.read += 1;
        let (parents, date) = commit_header(&self.buffer, id.kind())
            .ok_or_else(|| GitError::corrupt(&id, "its header is malformed".to_owned()))?;
        let parents = parents
            .into_iter()
            .map(|parent| self.node(parent))
            .collect();
        self.nodes[node].parents = Some(parents);
        self.nodes[node].date = date;
        Ok(())
    }

    /// Queues a read commit (git: `SEEN`, inserted by date).
    fn enqueue(&mut self, node: usize) {
        let entry = &mut self.nodes[node];
        entry.seen = true;
        if !entry.uninteresting {
            self.interesting_queued += 1;
        }
        self.queue.push((entry.date, Reverse(self.queued), node));
        self.queued += 1;
    }

    fn parents(&self, node: usize) -> Vec<usize> {
        self.nodes[node].parents.clone().unwrap_or_default()
    }

    /// Marks one commit uninteresting; `false` when it already was.
    fn mark(&mut self, node: usize) -> bool {
        let entry = &mut self.nodes[node];
        if entry.uninteresting {
            return false;
        }
        entry.uninteresting = true;
        if entry.seen && !entry.popped {
            self.interesting_queued -= 1;
        }
        if entry.listed {
            let date = entry.date;
            if let Some(count) = self.listed_dates.get_mut(&date) {
                *count -= 1;
                if *count == 0 {
                    self.listed_dates.remove(&date);
                }
            }
        }
        true
    }

    /// git's `mark_parents_uninteresting`: every commit below `node` that has been read or
    /// seen, through the parents known so far.
    fn mark_parents_uninteresting(&mut self, node: usize) {
        let mut pending = self.parents(node);
        while let Some(next) = pending.pop() {
            if self.mark(next) {
                pending.extend(self.parents(next));
            }
        }
    }

    /// Notes a parent dated after its child.
    fn check_skew(&mut self, child: usize, parent: usize) {
        let skew = self.nodes[parent]
            .date
            .saturating_sub(self.nodes[child].date);
        self.skew = self.skew.max(skew);
    }

    /// git's `process_parents`.
    fn process_parents(&mut self, node: usize) -> Result<(), GitError> {
        if self.nodes[node].uninteresting {
            for parent in self.parents(node) {
                self.mark(parent);
                // git parses gently here: a hidden commit's history may be cut off.
                if self.parse(parent).is_err() {
                    continue;
                }
                self.check_skew(node, parent);
                if !self.parents(parent).is_empty() {
                    self.mark_parents_uninteresting(parent);
                }
                if !self.nodes[parent].seen {
                    self.enqueue(parent);
                }
            }
            return Ok(());
        }
        for parent in self.parents(node) {
            if let Err(err) = self.parse(parent) {
                // Below a hidden tip, a commit that cannot be read is none of the tip's.
                if self.nodes[parent].uninteresting {
                    continue;
                }
                return Err(err);
            }
            self.check_skew(node, parent);
            if !self.nodes[parent].seen {
                self.enqueue(parent);
            }
        }
        Ok(())
    }

    /// git's `limit_list` loop.
    fn run(&mut self) -> Result<(), GitError> {
        let mut slop = SLOP;
        let mut last_listed = TIME_MAX;
        while let Some((_, _, node)) = self.queue.pop() {
            self.nodes[node].popped = true;
            if !self.nodes[node].uninteresting {
                self.interesting_queued -= 1;
            }
            self.process_parents(node)?;
            if self.nodes[node].uninteresting {
                self.mark_parents_uninteresting(node);
                slop = self.still_interesting(last_listed, slop);
                if slop > 0 {
                    continue;
                }
                // The skew right below where the walk would stop, which the commits read
                // so far cannot show (a target's tip committed with a clock in the past).
                let skew = self.skew;
                self.read_frontier_parents();
                if self.skew > skew && self.still_interesting(last_listed, 1) > 0 {
                    slop = SLOP;
                    continue;
                }
                break;
            }
            let entry = &mut self.nodes[node];
            entry.listed = true;
            last_listed = entry.date;
            *self.listed_dates.entry(entry.date).or_insert(0) += 1;
        }
        Ok(())
    }

    /// Reads the queued commits' parents, for their dates.
    fn read_frontier_parents(&mut self) {
        let queued: Vec<usize> = self.queue.iter().map(|(_, _, node)| *node).collect();
        for node in queued {
            for parent in self.parents(node) {
                // Only a date is wanted here; what cannot be read is judged when popped.
                if self.parse(parent).is_ok() {
                    self.check_skew(node, parent);
                }
            }
        }
    }

    /// git's `still_interesting`, plus astrix's condition on every listed commit.
    fn still_interesting(&self, last_listed: u64, slop: u32) -> u32 {
        let Some((head, _, _)) = self.queue.peek() else {
            return 0;
        };
        let head = *head;
        if last_listed <= head || self.interesting_queued > 0 {
            return SLOP;
        }
        if self
            .listed_dates
            .first_key_value()
            .is_some_and(|(oldest, _)| *oldest <= head.saturating_add(self.skew))
        {
            return SLOP;
        }
        slop - 1
    }
}

/// The parents of a commit and its date as git's `parse_commit_buffer` reads them: a `tree`
/// line, `parent` lines, then the date of the `committer` line that follows `author` (0 when
/// the lines are not there or hold no number). `None` for a commit without a valid `tree` or
/// `parent` line.
fn commit_header(data: &[u8], kind: gix::hash::Kind) -> Option<(Vec<ObjectId>, u64)> {
    let hex_len = kind.len_in_hex();
    let rest = data.strip_prefix(b"tree ")?;
    if rest.get(hex_len) != Some(&b'\n') {
        return None;
    }
    ObjectId::from_hex(&rest[..hex_len]).ok()?;
    let mut rest = &rest[hex_len + 1..];
    let mut parents = Vec::new();
    while let Some(line) = rest.strip_prefix(b"parent ") {
        if line.get(hex_len) != Some(&b'\n') {
            return None;
        }
        parents.push(ObjectId::from_hex(&line[..hex_len]).ok()?);
        rest = &line[hex_len + 1..];
    }
    Some((parents, commit_date(rest)))
}

/// git's `parse_commit_date`: the number after the last `>` of the `committer` line that
/// follows the `author` line, read as git's `strtoumax` reads it (a leading `-` wraps
/// around, overflow saturates); 0 when there is none.
fn commit_date(rest: &[u8]) -> u64 {
    let Some(after_author) = rest.strip_prefix(b"author") else {
        return 0;
    };
    let Some(newline) = after_author.iter().position(|byte| *byte == b'\n') else {
        return 0;
    };
    let line = &after_author[newline + 1..];
    if !line.starts_with(b"committer") {
        return 0;
    }
    let Some(end) = line.iter().position(|byte| *byte == b'\n') else {
        return 0;
    };
    let line = &line[..end];
    let Some(close) = line.iter().rposition(|byte| *byte == b'>') else {
        return 0;
    };
    let mut date = &line[close + 1..];
    // git's own `isspace` (space, tab, carriage return; the line has no newline), not the C
    // library's.
    while let Some((first, tail)) = date.split_first() {
        if matches!(first, b' ' | b'\t' | b'\r') {
            date = tail;
        } else {
            break;
        }
    }
    let negative = date.first() == Some(&b'-');
    if negative {
        date = &date[1..];
    } else if !date.first().is_some_and(u8::is_ascii_digit) {
        return 0;
    }
    let mut value: u64 = 0;
    let mut digits = 0;
    for byte in date.iter().take_while(|byte| byte.is_ascii_digit()) {
        digits += 1;
        match value
            .checked_mul(10)
            .and_then(|value| value.checked_add(u64::from(byte - b'0')))
        {
            Some(next) => value = next,
            None => return u64::MAX,
        }
    }
    if digits == 0 {
        return 0;
    }
    if negative {
        value.wrapping_neg()
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;

    /// A bare repository made by `git fast-import` from `stream`, with git's configuration
    /// and the machine's left out.
    fn imported(stream: &str) -> (tempfile::TempDir, gix::Repository) {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .args(args)
                .current_dir(dir.path())
                .env_clear()
                .env("PATH", "/usr/local/bin:/usr/bin:/bin")
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .stdin(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        assert!(git(&["init", "-q", "--bare"]).wait().unwrap().success());
        let mut import = git(&["fast-import", "--quiet", "--date-format=raw"]);
        import
            .stdin
            .take()
            .unwrap()
            .write_all(stream.as_bytes())
            .unwrap();
        assert!(import.wait().unwrap().success());
        let repo = gix::open_opts(dir.path(), gix::open::Options::isolated()).unwrap();
        (dir, repo)
    }

    /// `main`: `length` commits a minute apart (marks 1..=length); `feature`: `branch`
    /// commits on top of mark `fork`, dated after all of them.
    fn history(length: usize, fork: usize, branch: usize) -> String {
        let mut stream = String::new();
        let mut commit = |reference: &str, mark: usize, date: usize, parent: Option<usize>| {
            stream.push_str(&format!(
                "commit {reference}\nmark :{mark}\ncommitter C <c@example.com> {} +0000\ndata 2\n{}\n",
                1_700_000_000 + date * 60,
                mark % 10
            ));
            if let Some(parent) = parent {
                stream.push_str(&format!("from :{parent}\n"));
            }
            stream.push('\n');
        };
        for mark in 1..=length {
            commit("refs/heads/main", mark, mark, (mark > 1).then(|| mark - 1));
        }
        for step in 1..=branch {
            let mark = length + step;
            let parent = if step == 1 { fork } else { mark - 1 };
            commit("refs/heads/feature", mark, mark, Some(parent));
        }
        stream
    }

    fn walk(repo: &gix::Repository, tip: &str, hidden: &[&str]) -> Listing {
        let cache = std::cell::RefCell::default();
        let objects = Objects::new(repo, &cache);
        let id = |name: &str| repo.rev_parse_single(name).unwrap().detach();
        let hidden: Vec<ObjectId> = hidden.iter().map(|name| id(name)).collect();
        commits_not_in(&objects, id(tip), &hidden).unwrap()
    }

    #[test]
    fn the_walk_reads_the_hidden_history_only_down_to_where_the_branches_meet() {
        // A branch of 3 commits made 200 commits below the tip of a 3,000-commit main.
        let (_dir, repo) = imported(&history(3000, 2800, 3));
        {
            let listing = walk(&repo, "feature", &["main"]);
            assert_eq!(listing.commits.len(), 3);
            // main's 200 commits and the branch's, the fork point and git's slop.
            assert!(
                listing.read <= 200 + 3 + 1 + SLOP as usize + 2,
                "{}",
                listing.read
            );
            // One commit on top of another: a handful of reads.
            let listing = walk(&repo, "main", &["main~1"]);
            assert_eq!(listing.commits.len(), 1);
            assert!(listing.read <= 2 + SLOP as usize + 1, "{}", listing.read);
        }
    }

    fn on_line(repo: &gix::Repository, target: &str, hidden: &[&str], budget: usize) -> bool {
        let cache = std::cell::RefCell::default();
        let objects = Objects::new(repo, &cache);
        let id = |name: &str| repo.rev_parse_single(name).unwrap().detach();
        let hidden: Vec<ObjectId> = hidden.iter().map(|name| id(name)).collect();
        on_first_parent_line(&objects, id(target), &hidden, budget)
    }

    #[test]
    fn a_commit_below_a_tip_is_found_without_reading_a_newer_branch() {
        // `feature`: 200 commits on main~10, all newer than main's tip, which git's order
        // reads first.
        let (_dir, repo) = imported(&history(300, 290, 200));
        assert!(
            walk(&repo, "main~3", &["feature", "main"])
                .commits
                .is_empty()
        );
        assert!(walk(&repo, "main~3", &["feature", "main"]).read > 200);
        // Nearest date first: `main`, three commits down.
        assert!(on_line(&repo, "main~3", &["feature", "main"], 8));
        // Along the branch it is farther than the budget: the exact walk answers.
        assert!(!on_line(&repo, "main~20", &["feature"], 64));
        assert!(on_line(&repo, "main~20", &["feature"], 300));
        // Newer than where the branch forked: not on its line.
        assert!(!on_line(&repo, "main~3", &["feature"], 1000));
        // A commit no tip has: no.
        assert!(!on_line(&repo, "feature", &["main"], 1000));
        assert!(!on_line(&repo, "feature~1", &["main~1"], 1000));
        // The tip itself.
        assert!(on_line(&repo, "main", &["feature", "main"], 0));
    }

    const TREE: &str = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n";
    const PARENT: &str = "parent 0123456789012345678901234567890123456789\n";

    fn date(committer: &str) -> u64 {
        let text = format!("{TREE}author A <a@b> 1 +0000\ncommitter {committer}\n\nmessage\n");
        commit_header(text.as_bytes(), gix::hash::Kind::Sha1)
            .unwrap()
            .1
    }

    #[test]
    fn dates_read_as_git_reads_them() {
        assert_eq!(date("C <c@d> 1700000000 +0100"), 1_700_000_000);
        assert_eq!(date("C <c@d>   42"), 42);
        assert_eq!(date("C <c> weird <c@d> 7 +0000"), 7);
        assert_eq!(date("C <c@d> -1 +0000"), u64::MAX);
        assert_eq!(date("C <c@d> 99999999999999999999999 +0000"), u64::MAX);
        assert_eq!(date("C <c@d> x"), 0);
        assert_eq!(date("C <c@d>"), 0);
        assert_eq!(date("C c@d 5"), 0);
    }

    #[test]
    fn headers_give_the_parents() {
        let text = format!(
            "{TREE}{PARENT}{PARENT}author A <a@b> 1 +0000\ncommitter C <c@d> 2 +0000\n\nm\n"
        );
        let (parents, date) = commit_header(text.as_bytes(), gix::hash::Kind::Sha1).unwrap();
        assert_eq!(parents.len(), 2);
        assert_eq!(date, 2);
        assert_eq!(
            commit_header(b"tree 123\n", gix::hash::Kind::Sha1),
            None,
            "a short tree id"
        );
        let no_author = format!("{TREE}committer C <c@d> 2 +0000\n");
        assert_eq!(
            commit_header(no_author.as_bytes(), gix::hash::Kind::Sha1),
            Some((Vec::new(), 0))
        );
    }
}
