//! Lesson 22: reading MNIST's binary IDX files.
// Without the `flate2` feature the tests that read gzip files are left out, and the
// functions that only they use with them.
#![cfg_attr(not(feature = "flate2"), allow(unused_imports, dead_code))]

use std::io::Write;
use std::path::PathBuf;

use flate2::write::GzEncoder;
use flate2::Compression;
use micrograd::data::{load_idx_labels, load_mnist, parse_idx_images, parse_idx_labels, Loader};
use micrograd::Error;

/// An IDX file: the magic number, the big-endian sizes, then the bytes.
fn idx(magic: u32, sizes: &[u32], body: &[u8]) -> Vec<u8> {
    let mut bytes = magic.to_be_bytes().to_vec();
    sizes.iter().for_each(|s| bytes.extend(s.to_be_bytes()));
    bytes.extend(body);
    bytes
}

/// The message of a parse error (line and column must be 0 for a binary file).
fn parse_message<T: std::fmt::Debug>(result: Result<T, Error>) -> String {
    match result {
        Err(Error::Parse {
            line: 0,
            column: 0,
            message,
            ..
        }) => message,
        other => panic!("expected a binary-file parse error, got {other:?}"),
    }
}

/// A fresh path in the system's temporary directory for this test process.
fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("micrograd-19-{}-{name}", std::process::id()))
}

#[test]
fn images_are_flattened_row_by_row_and_scaled_to_0_1() {
    // Two 2x2 images.
    let bytes = idx(0x803, &[2, 2, 2], &[0, 51, 102, 255, 255, 0, 0, 0]);
    let images = parse_idx_images(&bytes, "img").unwrap();
    assert_eq!((images.rows, images.cols), (2, 2));
    // 51 / 255 = 0.2 and 102 / 255 = 0.4, by hand.
    assert_eq!(images.pixels[0], vec![0.0, 0.2, 0.4, 1.0]);
    assert_eq!(images.pixels[1], vec![1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn a_labels_file_passed_as_images_is_named_by_its_magic_number() {
    let message = parse_message(parse_idx_images(&idx(0x801, &[1], &[3]), "f"));
    assert!(
        message.contains("0x00000801 (this is a labels file)"),
        "{message}"
    );
    assert!(message.contains("0x00000803 was expected"), "{message}");
}

#[test]
fn a_truncated_header_or_body_says_where_the_file_ends() {
    let message = parse_message(parse_idx_images(&[0, 0, 8, 3, 0, 0, 0, 1, 0, 0], "f"));
    assert!(
        message.contains("ends at byte 10 inside the 16-byte header"),
        "{message}"
    );
    let message = parse_message(parse_idx_images(&idx(0x803, &[2, 2, 2], &[0; 7]), "f"));
    // 16 header bytes + 2*2*2 pixels = 24; the file has 16 + 7 = 23.
    assert!(message.contains("ends at byte 23"), "{message}");
    assert!(message.contains("run to byte 24"), "{message}");
    let message = parse_message(parse_idx_labels(&[0, 0, 8], "f"));
    assert!(message.contains("3 bytes long"), "{message}");
}

#[test]
fn bytes_after_the_data_are_an_error_not_ignored() {
    let message = parse_message(parse_idx_labels(&idx(0x801, &[2], &[1, 2, 3]), "f"));
    // 8 header bytes + 2 labels end at byte 10; the file goes to 11.
    assert!(
        message.contains("1 unexpected bytes from byte 10 to 11"),
        "{message}"
    );
}

#[test]
fn images_of_zero_rows_or_columns_are_an_error() {
    let message = parse_message(parse_idx_images(&idx(0x803, &[1, 0, 28], &[]), "f"));
    assert!(message.contains("0 x 28"), "{message}");
}

/// Writes `bytes` gzip-compressed to a fresh temporary file.
fn write_gz(name: &str, bytes: &[u8]) -> PathBuf {
    let path = temp_path(name);
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(bytes).unwrap();
    std::fs::write(&path, encoder.finish().unwrap()).unwrap();
    path
}

#[test]
#[cfg(feature = "flate2")]
fn load_mnist_pairs_gzipped_images_with_labels() {
    let images = write_gz("ok-images.gz", &idx(0x803, &[2, 1, 2], &[0, 255, 255, 0]));
    let labels = temp_path("ok-labels"); // plain, not compressed
    std::fs::write(&labels, idx(0x801, &[2], &[7, 3])).unwrap();
    let data = load_mnist(&images, &labels).unwrap();
    assert_eq!(data.inputs, vec![vec![0.0, 1.0], vec![1.0, 0.0]]);
    assert_eq!(data.labels, vec![7.0, 3.0]);
    std::fs::remove_file(images).unwrap();
    std::fs::remove_file(labels).unwrap();
}

#[test]
fn load_mnist_rejects_different_image_and_label_counts() {
    let (images, labels) = (temp_path("n-images"), temp_path("n-labels"));
    std::fs::write(&images, idx(0x803, &[2, 1, 1], &[0, 0])).unwrap();
    std::fs::write(&labels, idx(0x801, &[3], &[1, 2, 3])).unwrap();
    let message = parse_message(load_mnist(&images, &labels));
    assert!(message.contains("holds 3 labels but"), "{message}");
    assert!(message.contains("holds 2 images"), "{message}");
    std::fs::remove_file(images).unwrap();
    std::fs::remove_file(labels).unwrap();
}

#[test]
fn load_mnist_rejects_a_label_that_is_not_a_digit() {
    // A labels file of another dataset (EMNIST letters go up to 26) is not MNIST's.
    let (images, labels) = (temp_path("d-images"), temp_path("d-labels"));
    std::fs::write(&images, idx(0x803, &[3, 1, 1], &[0, 0, 0])).unwrap();
    std::fs::write(&labels, idx(0x801, &[3], &[9, 0, 10])).unwrap();
    let message = parse_message(load_mnist(&images, &labels));
    assert!(
        message.contains("label 10 of sample 2 (byte offset 10)"),
        "{message}"
    );
    assert!(message.contains("load_idx_labels"), "{message}");
    // The generic reader takes any byte.
    assert_eq!(load_idx_labels(&labels).unwrap(), vec![9.0, 0.0, 10.0]);
    std::fs::remove_file(images).unwrap();
    std::fs::remove_file(labels).unwrap();
}

#[test]
#[cfg(feature = "flate2")]
fn a_gzipped_idx_file_inflates_to_at_most_the_loaders_limit() {
    // 1,000 zero images of 10 x 10 pixels: 100,016 bytes, which compress to about 100.
    let images = write_gz("big-images.gz", &idx(0x803, &[1000, 10, 10], &[0; 100_000]));
    let message = parse_message(Loader::new().max_inflated(1_000).load_idx_images(&images));
    assert!(message.contains("more than 1000 bytes"), "{message}");
    assert!(message.contains("max_inflated"), "{message}");
    let loaded = Loader::new().max_inflated(100_016).load_idx_images(&images);
    assert_eq!(loaded.unwrap().pixels.len(), 1000);
    std::fs::remove_file(images).unwrap();
}
