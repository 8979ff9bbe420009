"""Subword vocab files per language. The German one was exported as latin-1."""
import os
os.makedirs("vocab", exist_ok=True)
words = {"de": ["über", "straße", "müde", "schön", "grün", "haus", "baum"] * 60,
         "fr": ["été", "forêt", "très", "déjà", "maison", "arbre", "livre"] * 60,
         "es": ["niño", "año", "canción", "mañana", "casa", "árbol", "libro"] * 60}
for lang, ws in words.items():
    enc = "latin-1" if lang == "de" else "utf-8"
    with open(f"vocab/vocab.{lang}.txt", "w", encoding=enc) as f:
        for i, w in enumerate(ws):
            f.write(f"{w}{i}\t{1000 - i}\n")
