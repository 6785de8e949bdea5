//! Writing a file without ever leaving it half-written, and without writing through a
//! link someone planted: write a new file beside it, created exclusively under a name
//! no other process can predict, sync it, rename it over the file.
//!
//! Every file the crate writes goes through [`write_atomically`] (model files,
//! [`MLP::save`](crate::nn::MLP::save)) or, where files are replaced together, its two
//! halves [`Prepared::write`] and [`Prepared::commit`] (generated C,
//! [`CCode::write_to`](crate::codegen::CCode::write_to)).

use std::collections::hash_map::RandomState;
use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::Error;

/// A number for each temporary file this process names, so that two saves at once
/// (from two threads) never draw the same name.
static TEMPORARY: AtomicU64 = AtomicU64::new(0);

/// The most names tried for a temporary file before giving up: each is taken only if
/// a file (or link) of that name is there already, which no one can arrange for a
/// name they cannot predict, so more than one is rare and 64 never happen by chance.
const ATTEMPTS: usize = 64;

/// The most symbolic links followed from one path, as Linux's `ELOOP` limit.
const MAX_LINKS: usize = 40;

/// The longest file name (in bytes) most file systems take (ext4, XFS, Btrfs, APFS;
/// NTFS counts 255 UTF-16 units).
const NAME_MAX: usize = 255;

/// Writes `path` through a temporary file beside it: `write` fills it, it is flushed,
/// given the permissions of the file at `path` if there is one, synced, then renamed
/// over `path`. On failure the temporary file is removed and `path` is as it was. If
/// `path` is a symbolic link (or a chain of them), the file it points to is replaced
/// that way and the link is kept.
///
/// The temporary file, `.NAME.tmp-` and 16 hex digits, is created exclusively
/// (`O_CREAT | O_EXCL`): never an existing file, never through a link, whatever was
/// planted beside `path`; a name taken is passed over for another. When it replaces a
/// file it is private to its owner (on Unix, mode `0o600`) until it has that file's
/// permissions, so a private model is never readable by others, even half-written.
///
/// It is [`Prepared::write`] then [`Prepared::commit`]; a caller that replaces several
/// files together prepares them all before committing any.
pub(crate) fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), Error> {
    Prepared::write(path, write)?.commit()
}

/// A file written in full beside its place, not yet renamed over it: [`commit`]
/// renames it; dropping it uncommitted removes it, leaving `path` as it was.
///
/// [`commit`]: Prepared::commit
#[derive(Debug)]
pub(crate) struct Prepared {
    /// The path the caller named, for errors.
    path: PathBuf,
    /// `path` with its links followed: what the rename replaces.
    resolved: PathBuf,
    /// The temporary file beside `resolved`; `None` once renamed.
    temporary: Option<PathBuf>,
}

impl Prepared {
    /// Writes the temporary file for `path` as [`write_atomically`] does, up to (not
    /// including) the rename. Fails, removing the temporary file, if `write` fails, if
    /// the file cannot be synced, or if something other than a file is at `path` (a
    /// directory, say), which the rename could not replace.
    pub(crate) fn write(
        path: &Path,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<Prepared, Error> {
        let write_error = |source| Error::Write {
            path: path.to_path_buf(),
            source,
        };
        let resolved = follow_links(path).map_err(write_error)?;
        let Some(name) = resolved.file_name() else {
            let message = "the path names no file (it ends in `..` or is empty)";
            return Err(write_error(io::Error::new(
                io::ErrorKind::InvalidInput,
                message,
            )));
        };
        // A file replaced keeps its permissions (a model kept private stays private); a
        // new one gets the default of a created file. Anything else there (a directory,
        // a device) is refused now, before any file of a set is renamed.
        let keep = match fs::metadata(&resolved) {
            Ok(meta) if meta.is_file() => Some(meta),
            Ok(_) => {
                let message = "something other than a file is there (a directory?)";
                return Err(write_error(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    message,
                )));
            }
            Err(_) => None,
        };
        let (file, temporary) =
            create_temporary(&resolved, name, keep.is_some(), unpredictable_suffix)
                .map_err(write_error)?;
        let prepared = Prepared {
            path: path.to_path_buf(),
            resolved,
            temporary: Some(temporary),
        };
        let written = (|| {
            let mut out = BufWriter::new(file);
            write(&mut out)?;
            let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
            if let Some(old) = keep {
                file.set_permissions(old.permissions())?;
            }
            file.sync_all()
        })();
        // On failure, dropping `prepared` removes the temporary file.
        written.map_err(write_error)?;
        Ok(prepared)
    }

    /// Renames the temporary file over the path, and syncs the directory so that the
    /// rename is durable. On failure the temporary file is removed and the path is as
    /// it was.
    pub(crate) fn commit(mut self) -> Result<(), Error> {
        let Some(temporary) = self.temporary.take() else {
            return Ok(());
        };
        if let Err(source) = fs::rename(&temporary, &self.resolved) {
            fs::remove_file(&temporary).ok();
            return Err(Error::Write {
                path: self.path.clone(),
                source,
            });
        }
        // Make the rename itself durable. Not every platform can open a directory to
        // sync it; the file is complete and in place either way.
        let directory = self.resolved.parent().filter(|d| !d.as_os_str().is_empty());
        if let Ok(dir) = File::open(directory.unwrap_or(Path::new("."))) {
            dir.sync_all().ok();
        }
        Ok(())
    }
}

impl Drop for Prepared {
    /// Removes the temporary file of a write that was never committed.
    fn drop(&mut self) {
        if let Some(temporary) = self.temporary.take() {
            fs::remove_file(temporary).ok();
        }
    }
}

/// Creates a new file beside `path` (whose file name is `name`) for writing, named
/// [`temporary_name`]`(name, suffix())`, exclusively: if anything is there under that
/// name (a file, or a link, even one pointing nowhere) another `suffix()` is tried, up
/// to [`ATTEMPTS`] times. `private`: readable and writable by its owner only (Unix).
fn create_temporary(
    path: &Path,
    name: &OsStr,
    private: bool,
    mut suffix: impl FnMut() -> String,
) -> io::Result<(File, PathBuf)> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if private {
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    }
    #[cfg(not(unix))]
    let _ = private;
    for _ in 0..ATTEMPTS {
        let temporary = path.with_file_name(temporary_name(name, &suffix()));
        match options.open(&temporary) {
            Ok(file) => return Ok((file, temporary)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!(
            "{ATTEMPTS} names for a temporary file beside it were all taken by files already \
             there (planted?); remove the files named `.{}.tmp-…` beside it, or save \
             elsewhere",
            name.to_string_lossy()
        ),
    ))
}

/// `.tmp-` and 16 hex digits that no other process can predict: the count of names
/// this process drew, its id and the time, hashed with keys the standard library draws
/// from the operating system's random source for each process.
fn unpredictable_suffix() -> String {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(TEMPORARY.fetch_add(1, Ordering::Relaxed));
    hasher.write_u32(std::process::id());
    let now = SystemTime::now().duration_since(UNIX_EPOCH);
    hasher.write_u128(now.map_or(0, |t| t.as_nanos()));
    format!(".tmp-{:016x}", hasher.finish())
}

/// The temporary file's name for a file `name`: `.NAME` then `suffix`, with `NAME`
/// cut short (whole characters, a name that is not Unicode read lossily) where the
/// whole would be longer than [`NAME_MAX`] bytes, so that any name the file system
/// takes has a temporary file it takes too.
fn temporary_name(name: &OsStr, suffix: &str) -> OsString {
    let room = NAME_MAX - 1 - suffix.len();
    let mut temporary = OsString::from(".");
    if name.len() <= room {
        temporary.push(name);
    } else {
        let name = name.to_string_lossy();
        let cut = (name.char_indices().map(|(i, c)| i + c.len_utf8()))
            .take_while(|&end| end <= room)
            .last()
            .unwrap_or(0);
        temporary.push(&name[..cut]);
    }
    temporary.push(suffix);
    temporary
}

/// `path` with every symbolic link it ends in followed (a relative link from the
/// link's directory), so that the rename replaces the file the link points to, not the
/// link. The target need not exist: saving through a dangling link creates it.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&path)?;
                // Joining an absolute target gives the target itself.
                path = match path.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row (a loop?); save to the file itself"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new directory for one test.
    fn directory(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("micrograd-{test}-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<OsString> {
        let mut names: Vec<_> = (fs::read_dir(dir).unwrap())
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_long_name_s_temporary_name_is_cut_at_a_whole_character() {
        let name = "é".repeat(127); // 254 bytes, two per character
        let temporary = temporary_name(OsStr::new(&name), ".tmp-12-0"); // room: 245 bytes
        let temporary = temporary.to_str().expect("whole characters");
        assert!(temporary.len() <= NAME_MAX, "{}", temporary.len());
        assert!(temporary.starts_with(".éé") && temporary.ends_with("é.tmp-12-0"));
        assert_eq!(
            temporary_name(OsStr::new("m.txt"), ".tmp-1-0"),
            ".m.txt.tmp-1-0"
        );
    }

    #[test]
    fn a_write_that_fails_midway_leaves_the_old_file_and_no_temporary_file() {
        let dir = directory("atomic");
        let path = dir.join("model.txt");
        fs::write(&path, "the old model\n").unwrap();
        let err = write_atomically(&path, |out| {
            out.write_all(b"half a new mod")?;
            Err(io::Error::other("disk full (injected)"))
        })
        .unwrap_err();
        assert!(matches!(err, Error::Write { .. }), "{err:?}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "the old model\n");
        assert_eq!(names(&dir), ["model.txt"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_temporary_name_is_passed_over_not_followed() {
        // An attacker who guessed the name exactly: a link there to their victim, and
        // a dangling one (which a plain create would follow to make the file).
        let dir = directory("planted");
        let (victim, path) = (dir.join("victim"), dir.join("model.txt"));
        fs::write(&victim, "precious\n").unwrap();
        std::os::unix::fs::symlink(&victim, dir.join(".model.txt.tmp-guessed")).unwrap();
        std::os::unix::fs::symlink(dir.join("new"), dir.join(".model.txt.tmp-dangling")).unwrap();
        let mut suffixes = [".tmp-guessed", ".tmp-dangling", ".tmp-free"].into_iter();
        let next = || suffixes.next().unwrap().to_owned();
        let (mut file, temporary) =
            create_temporary(&path, OsStr::new("model.txt"), false, next).unwrap();
        file.write_all(b"the model\n").unwrap();
        assert_eq!(temporary, dir.join(".model.txt.tmp-free"));
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
        assert!(!dir.join("new").exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn temporary_names_are_sixteen_hex_digits_drawn_anew_each_time() {
        let suffixes: Vec<String> = (0..1000).map(|_| unpredictable_suffix()).collect();
        for s in &suffixes {
            let digits = s.strip_prefix(".tmp-").unwrap();
            assert!(digits.len() == 16 && digits.chars().all(|c| c.is_ascii_hexdigit()));
        }
        let distinct: std::collections::HashSet<_> = suffixes.iter().collect();
        assert_eq!(distinct.len(), suffixes.len());
    }
}
