//! Reading a file that may be gzip-compressed.

use std::path::Path;

use super::parse_error;
use crate::Error;

/// The first two bytes of every gzip stream (RFC 1952, section 2.3.1).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The bytes of the file at `path`, decompressed if they start with the gzip magic bytes
/// (whatever the file is called).
///
/// # Errors
///
/// [`Error::Io`] if the file cannot be read, [`Error::Parse`] if it looks like gzip but
/// does not decompress (or the crate was built without its `flate2` feature).
pub(super) fn read_maybe_gz(path: &Path) -> Result<Vec<u8>, Error> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if !bytes.starts_with(&GZIP_MAGIC) {
        return Ok(bytes);
    }
    gunzip(&bytes).map_err(|message| parse_error(path, 0, 0, message))
}

/// The decompressed `bytes`, or what went wrong.
#[cfg(feature = "flate2")]
fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .map_err(|e| format!("starts like gzip (bytes 1f 8b) but does not decompress: {e}"))?;
    Ok(out)
}

/// Without the `flate2` feature, a gzip file is an error that says how to read it.
#[cfg(not(feature = "flate2"))]
fn gunzip(_: &[u8]) -> Result<Vec<u8>, String> {
    Err(
        "is gzip-compressed (starts with bytes 1f 8b), but micrograd was built without its \
         `flate2` feature: enable the feature or decompress the file (`gunzip`)"
            .to_owned(),
    )
}
