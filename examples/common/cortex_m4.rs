//! A Cortex-M4 image around generated inference C (`CodeGen::inference`), linked with
//! `arm-none-eabi-gcc` and measured with `arm-none-eabi-size`: what a microcontroller
//! would hold. The image's `reset` copies `.data`, zeroes `.bss`, turns the FPU on, runs
//! the model on one sample kept in flash and stores the outputs in `out`.
//!
//! Shared by `11_microcontroller` (MNIST) and lesson 35 (iris), which includes this file
//! with `#[path]`: it uses nothing but `std`, `micrograd` and `files.rs` (included the
//! same way).
#![allow(dead_code)]

#[path = "files.rs"]
pub mod files;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The compiler for the image.
pub const ARM_GCC: &str = "arm-none-eabi-gcc";

/// A Cortex-M4 with its single-precision FPU, and no hosted C library.
pub const CORTEX_M4: &[&str] = &[
    "-mcpu=cortex-m4",
    "-mthumb",
    "-mfloat-abi=hard",
    "-mfpu=fpv4-sp-d16",
    "-ffreestanding",
];

/// The flags the generated C is compiled with for the image: [`CORTEX_M4`] and
/// `micrograd::codegen::C_FLAGS`.
pub fn flags() -> Vec<&'static str> {
    [CORTEX_M4, micrograd::codegen::C_FLAGS].concat()
}

/// The memory map of a typical Cortex-M4 part (1 MB of flash, 128 KB of RAM at the
/// usual addresses): the image's sections land where a device has them.
const LINKER_SCRIPT: &str = "/* A Cortex-M4 memory map: flash at 0x08000000, RAM at 0x20000000. */
MEMORY {
    FLASH (rx) : ORIGIN = 0x08000000, LENGTH = 1024K
    RAM (rwx) : ORIGIN = 0x20000000, LENGTH = 128K
}
ENTRY(reset)
SECTIONS {
    .isr_vector : { KEEP(*(.isr_vector)) } > FLASH
    .text : { *(.text*) } > FLASH
    .rodata : { *(.rodata*) } > FLASH
    .data : { _sdata = .; *(.data*) _edata = .; } > RAM AT > FLASH
    _sidata = LOADADDR(.data);
    .bss : { _sbss = .; *(.bss*) *(COMMON) _ebss = .; } > RAM
    _estack = ORIGIN(RAM) + LENGTH(RAM);
}
";

/// What `arm-none-eabi-size` says of an image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageSize {
    /// `.data + .bss`: the RAM the program's variables take (the caller's buffer is one
    /// of them; the stack is not counted).
    pub ram_bytes: usize,
    /// `.text + .rodata + .data` (`text + data` in `size`'s words): the flash.
    pub flash_bytes: usize,
}

/// Whether `arm-none-eabi-gcc` is installed.
pub fn installed() -> bool {
    Command::new(ARM_GCC).arg("--version").output().is_ok()
}

/// The image's C: `reset` and the vector table, running `name`'s inference on `sample`
/// (the numbers of the input group `group`).
fn main_c(name: &str, group: &str, sample: &[f64]) -> String {
    let upper = name.to_uppercase();
    let numbers: Vec<String> = sample
        .iter()
        .map(|x| format!("({name}_real){x:?}"))
        .collect();
    format!(
        "/* A Cortex-M4 image around {name}'s inference C. */
#include \"{name}.h\"

extern unsigned long _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];

static {name}_real buf[{upper}_BUFFER_LEN];
/* One sample, in flash. */
static const {name}_real sample[{upper}_{G}_LEN] = {{
    {numbers}
}};
/* The outputs, for a debugger to read. */
{name}_real out[{upper}_OUTPUTS];

void reset(void);

/* The initial stack pointer and the reset handler. */
__attribute__((section(\".isr_vector\"), used)) const unsigned long vectors[2] = {{
    (unsigned long)_estack, (unsigned long)reset}};

void reset(void) {{
    unsigned long *from = _sidata, *to = _sdata;
    while (to < _edata) *to++ = *from++;
    for (to = _sbss; to < _ebss;) *to++ = 0;
    *(volatile unsigned long *)0xE000ED88UL |= 0xFUL << 20; /* CPACR: the FPU on */
    {name}_set_{group}(buf, sample);
    {name}_forward(buf);
    {name}_outputs(buf, out);
    for (;;) {{
    }}
}}
",
        G = group.to_uppercase(),
        numbers = numbers.join(",\n    ")
    )
}

/// Links `dir/name.c` (written by `CodeGen::inference`) into a Cortex-M4 image
/// `dir/name.elf` that runs it on `sample` (the input group `group`), and measures it.
pub fn link(dir: &Path, name: &str, group: &str, sample: &[f64]) -> Result<ImageSize, String> {
    let main = dir.join(format!("{name}_cortex_m4.c"));
    let script = dir.join("cortex_m4.ld");
    let image: PathBuf = dir.join(format!("{name}.elf"));
    files::write(&main, main_c(name, group, sample))?;
    files::write(&script, LINKER_SCRIPT)?;
    let out = Command::new(ARM_GCC)
        .args(flags())
        .args(["-nostdlib", "-T"])
        .arg(&script)
        .arg(dir.join(format!("{name}.c")))
        .arg(&main)
        .arg("-o")
        .arg(&image)
        // (libm for the math functions, libgcc for the soft-double routines)
        .args(["-lm", "-lc", "-lgcc"])
        .output()
        .map_err(|e| format!("cannot run {ARM_GCC}: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "{ARM_GCC} failed to link {}:\n{err}",
            image.display()
        ));
    }
    size(&image)
}

/// `arm-none-eabi-size image`: its `text data bss` line.
pub fn size(image: &Path) -> Result<ImageSize, String> {
    let out = Command::new("arm-none-eabi-size")
        .arg(image)
        .output()
        .map_err(|e| format!("cannot run arm-none-eabi-size: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let numbers: Vec<usize> = (text.lines().nth(1).unwrap_or(""))
        .split_whitespace()
        .take(3)
        .filter_map(|n| n.parse().ok())
        .collect();
    match numbers[..] {
        [text, data, bss] => Ok(ImageSize {
            ram_bytes: data + bss,
            flash_bytes: text + data,
        }),
        _ => Err(format!("arm-none-eabi-size {}: {text:?}", image.display())),
    }
}
