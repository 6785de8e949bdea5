//! The C header: the buffer's layout (which index is which input, parameter, output)
//! and the functions.

use std::fmt::Write;

use super::plan::Role;
use super::source::Program;

/// `name.h` for `program`.
pub(super) fn header(p: &Program, name: &str) -> String {
    let upper = name.to_uppercase();
    let real = super::ops::Real::new(p.precision).c_type();
    let at = p.at;
    let kept = super::kept_calls();
    let mut h = format!(
        "/* {name}.h: written by micrograd::codegen. Trains one compiled graph in C: forward,\n \
         * backward and the parameter updates over one buffer of numbers that the caller\n \
         * owns (no malloc; nothing of the C library but math.h). A step:\n \
         *\n \
         *     static {real} buf[{upper}_BUFFER_LEN];\n \
         *     {name}_init(buf);                        (once)\n \
         *     {name}_set_<input>(buf, sample);         (each input group)\n \
         *     loss = {name}_forward(buf);\n \
         *     {name}_backward(buf);                    (adds into the parameters' gradients)\n \
         *     {name}_sgd(buf, lr);                     (or _adam; zeroes the gradients)\n \
         *\n \
         * Compile with -ffp-contract=off, -fno-builtin-<f> for libm's {kept},\n \
         * and without -ffast-math (micrograd::codegen::C_FLAGS): then the double version\n \
         * computes the tape's numbers bit for bit.\n \
         *\n \
         * The buffer, in {real}s:\n \
         *   buf[k], k < {upper}_NODES           node k's value (leaves first, root last)\n \
         *   buf[{upper}_NODES]                  1, the constant factor of the sums' terms\n \
         *   buf[{upper}_GRAD + k]               d root / d node k (parameters: summed since\n \
         *                                        the last update; inputs and constants: not\n \
         *                                        computed)\n \
         *   buf[{upper}_ADAM_M + i], _ADAM_V + i  Adam's moments of parameter i; _ADAM_T: steps\n \
         *\n \
         * The leaves (node index: what):\n"
    );
    for line in leaf_table(p) {
        let _ = writeln!(h, " *   {line}");
    }
    let _ = write!(
        h,
        " */\n\
         #ifndef {upper}_H\n#define {upper}_H\n\n\
         #ifdef __cplusplus\nextern \"C\" {{\n#endif\n\n\
         typedef {real} {name}_real;\n\n\
         #define {upper}_NODES {} /* nodes: values at buf[0 .. {upper}_NODES) */\n\
         #define {upper}_ROOT {} /* the root (what forward returns) */\n\
         #define {upper}_GRAD {} /* gradients: buf[{upper}_GRAD + k] for node k */\n\
         #define {upper}_SGD_BUFFER_LEN {} /* enough for init_sgd and sgd */\n\
         #define {upper}_ADAM_M {}\n\
         #define {upper}_ADAM_V {}\n\
         #define {upper}_ADAM_T {}\n\
         #define {upper}_BUFFER_LEN {} /* the whole buffer, Adam's state included */\n\
         #define {upper}_PARAMS {} /* parameters (get_params, set_params) */\n\
         #define {upper}_OUTPUTS {} /* outputs (the outputs function) */\n",
        at.nodes,
        p.root(),
        at.grad,
        at.sgd_len,
        at.adam_m,
        at.adam_v,
        at.adam_t,
        at.len,
        p.param_count,
        p.listing.outputs.len()
    );
    for (i, k) in p.listing.outputs.iter().enumerate() {
        let _ = writeln!(
            h,
            "#define {upper}_OUTPUT_{i} {k} /* output {i}: buf[{k}] */"
        );
    }
    for (group, spans) in p.groups.iter().zip(&p.inputs) {
        let len: usize = spans.iter().map(|s| s.len).sum();
        let _ = writeln!(
            h,
            "#define {upper}_{}_LEN {len} /* numbers of the input `{group}` */",
            group.to_uppercase()
        );
    }
    let _ = write!(
        h,
        "\n/* The whole buffer ready: the leaves' values as generated, gradients and Adam's\n   \
         state 0. (init_sgd: the first {upper}_SGD_BUFFER_LEN numbers only.) */\n\
         void {name}_init({name}_real *buf);\n\
         void {name}_init_sgd({name}_real *buf);\n"
    );
    for (group, _) in p.groups.iter().zip(&p.inputs) {
        let _ = write!(
            h,
            "/* Writes {upper}_{}_LEN numbers into the input leaves `{group}`. */\n\
             void {name}_set_{group}({name}_real *buf, const {name}_real *values);\n",
            group.to_uppercase()
        );
    }
    let _ = write!(
        h,
        "/* Computes every node from the leaves; returns the root's value. */\n\
         {name}_real {name}_forward({name}_real *buf);\n\
         /* Adds d root / d parameter (at the values of the last forward) into the\n   \
         parameters' gradients. */\n\
         void {name}_backward({name}_real *buf);\n\
         /* Sets the parameters' gradients to 0. */\n\
         void {name}_zero_grad({name}_real *buf);\n\
         /* p = p - lr * grad for every parameter; then the gradients are 0. */\n\
         void {name}_sgd({name}_real *buf, {name}_real lr);\n\
         /* One Adam step for every parameter (as micrograd::optim::Adam); then the\n   \
         gradients are 0. Needs the whole buffer. */\n\
         void {name}_adam({name}_real *buf, {name}_real lr, {name}_real beta1, {name}_real beta2,\n    \
         {name}_real eps);\n\
         /* The outputs' values, in order, into out[0 .. {upper}_OUTPUTS). */\n\
         void {name}_outputs(const {name}_real *buf, {name}_real *out);\n\
         /* The parameters, in order, out of and into the buffer. */\n\
         void {name}_get_params(const {name}_real *buf, {name}_real *params);\n\
         void {name}_set_params({name}_real *buf, const {name}_real *params);\n\
         /* The parameters' gradients, in order. */\n\
         void {name}_get_grads(const {name}_real *buf, {name}_real *grads);\n\n\
         #ifdef __cplusplus\n}}\n#endif\n\n#endif\n"
    );
    h
}

/// The leaves as lines `first .. end  what`, consecutive leaves of one role with
/// consecutive positions on one line.
fn leaf_table(p: &Program) -> Vec<String> {
    let mut lines: Vec<(usize, usize, Role, usize)> = Vec::new(); // start, end, role, pos0
    let pos = |r: Role| match r {
        Role::Input { pos, .. } | Role::Param(pos) => pos,
        Role::Const => 0,
    };
    for (k, &role) in p.roles.iter().enumerate() {
        match lines.last_mut() {
            Some((start, end, r, p0)) if *end == k => {
                let same = match (role, *r) {
                    (Role::Input { group: a, .. }, Role::Input { group: b, .. }) => a == b,
                    (Role::Param(_), Role::Param(_)) | (Role::Const, Role::Const) => true,
                    _ => false,
                };
                if same && (role == Role::Const || pos(role) == *p0 + (k - *start)) {
                    *end += 1;
                    continue;
                }
                lines.push((k, k + 1, role, pos(role)));
            }
            _ => lines.push((k, k + 1, role, pos(role))),
        }
    }
    lines
        .into_iter()
        .map(|(start, end, role, p0)| {
            let span = format!("{start} .. {end}");
            let n = end - start;
            let what = match role {
                Role::Input { group, .. } => {
                    format!("input {}[{p0} .. {}]", p.groups[group], p0 + n)
                }
                Role::Param(_) => format!("parameters {p0} .. {}", p0 + n),
                Role::Const => format!("constant{}", if n > 1 { "s" } else { "" }),
            };
            format!("{span:<18} {what}")
        })
        .collect()
}
