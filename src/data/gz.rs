//! Reading a file that may be gzip-compressed.

use std::io::Read;
use std::path::Path;

use flate2::read::MultiGzDecoder;

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
/// does not decompress.
pub(super) fn read_maybe_gz(path: &Path) -> Result<Vec<u8>, Error> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if !bytes.starts_with(&GZIP_MAGIC) {
        return Ok(bytes);
    }
    let mut out = Vec::new();
    MultiGzDecoder::new(bytes.as_slice())
        .read_to_end(&mut out)
        .map_err(|e| {
            let message = format!("starts like gzip (bytes 1f 8b) but does not decompress: {e}");
            parse_error(path, 0, 0, message)
        })?;
    Ok(out)
}
