"""Write a tiny random-weights llama-architecture GGUF that llama.cpp can load.

Byte-level BPE vocabulary (256 byte tokens + a few merges + ChatML specials), so any
text can be tokenised and any text can be produced; weights are seeded random numbers.

Usage: python _make_tiny_gguf.py OUT.gguf [seed]   (needs: pip install gguf numpy)

Copied unchanged in substance from the team's research notes (docs/research/make_tiny_gguf.py,
written for hintline's local-LLM research, 2026-11-30); the llama-server fixture in llama.py
imports ``main`` from here to write the model at test time.

Tested 2026-11-30 with gguf 0.19.0 and llama.cpp commit 0c1e570 (llama-server and
llama-cpp-python 0.3.36): 469 KB file, server ready in <0.6 s, replies in 20-70 ms.
Give string fields a maxLength in the JSON schema, or output runs to max_tokens.
"""
import sys

import gguf
import numpy as np


def byte_symbols():
    """Return the byte-level BPE symbol for each byte value 0..255, in byte order.

    Printable Latin-1 bytes stand for themselves. Every other byte takes the next free
    code point from U+0100 upward, in byte order; this is the byte encoding that
    llama.cpp's "gpt2" tokenizer model expects (so the space byte becomes U+0120).
    """
    printable = set(range(0x21, 0x7F)) | set(range(0xA1, 0xAD)) | set(range(0xAE, 0x100))
    shifted = iter(range(0x100, 0x200))
    return [chr(b) if b in printable else chr(next(shifted)) for b in range(256)]


def main(out, seed=0):
    rng = np.random.default_rng(seed)
    n_embd, n_layer, n_head, n_ff, n_ctx = 64, 2, 4, 128, 2048
    tokens = byte_symbols()
    merges = ["\u0120 t", "h e", "i n"]
    tokens += ["\u0120t", "he", "in"]
    specials = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
    tokens += specials
    types = [gguf.TokenType.NORMAL] * (len(tokens) - 3) + [gguf.TokenType.CONTROL] * 3
    n_vocab = len(tokens)

    w = gguf.GGUFWriter(out, "llama")
    w.add_name("tiny-random-llama")
    w.add_context_length(n_ctx)
    w.add_embedding_length(n_embd)
    w.add_block_count(n_layer)
    w.add_feed_forward_length(n_ff)
    w.add_head_count(n_head)
    w.add_head_count_kv(n_head)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_rope_dimension_count(n_embd // n_head)
    w.add_vocab_size(n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(tokens.index("<|endoftext|>"))
    w.add_eos_token_id(tokens.index("<|im_end|>"))
    w.add_add_bos_token(False)
    w.add_chat_template(
        "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
        "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
    )

    def t(name, *shape):  # numpy shape is (rows, cols) = reversed ggml ne
        w.add_tensor(name, (rng.standard_normal(shape) * 0.02).astype(np.float32))

    # Dimension 0 of every embedding is a large constant, so after RMSNorm it acts as a bias
    # input to the output layer; a negative weight there keeps the model from emitting
    # control bytes and non-ASCII bytes (which would make invalid UTF-8 / invalid JSON).
    emb = (rng.standard_normal((n_vocab, n_embd)) * 0.02).astype(np.float32)
    emb[:, 0] = 1.0
    w.add_tensor("token_embd.weight", emb)
    w.add_tensor("output_norm.weight", np.ones(n_embd, dtype=np.float32))
    out_w = (rng.standard_normal((n_vocab, n_embd)) * 0.02).astype(np.float32)
    out_w[:, 0] = 0.0
    for b in list(range(0x20)) + list(range(0x7F, 0x100)):
        out_w[b, 0] = -4.0  # token id b is the byte b (see token list above)
    w.add_tensor("output.weight", out_w)
    for i in range(n_layer):
        w.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(n_embd, dtype=np.float32))
        w.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(n_embd, dtype=np.float32))
        for n in ("attn_q", "attn_k", "attn_v", "attn_output"):
            t(f"blk.{i}.{n}.weight", n_embd, n_embd)
        t(f"blk.{i}.ffn_gate.weight", n_ff, n_embd)
        t(f"blk.{i}.ffn_up.weight", n_ff, n_embd)
        t(f"blk.{i}.ffn_down.weight", n_embd, n_ff)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python make_tiny_gguf.py OUT.gguf [seed]")
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
