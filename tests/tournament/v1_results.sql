BEGIN TRANSACTION;
CREATE TABLE games (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    game_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    match INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    players TEXT NOT NULL,
    entrants TEXT NOT NULL,
    bot_seeds TEXT NOT NULL,
    chooser INTEGER NOT NULL,
    starting INTEGER NOT NULL,
    mulligans TEXT NOT NULL,
    winner TEXT,
    winner_seat INTEGER NOT NULL,
    reason TEXT NOT NULL,
    turns INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    final_hash TEXT NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (tournament, game_id)
);
INSERT INTO "games" VALUES(1,'r1-m1-g1',1,1,1,7230379947731195775,'["a", "b"]','[0, 1]','[3656499606331303283, 5343492762410602017]',0,0,'[0, 0]','a',0,'a wins: b has 0 or less life (704.5a)',21,73,'f7b41dc39948ef067b29b216a148c3bb',2.8428523000911809504e-02);
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    settings TEXT NOT NULL
);
INSERT INTO "tournaments" VALUES(1,'b729c796c3b0939d0923bef7','{"best_of": 1, "deadline": 30.0, "entrants": [{"bot": "random", "cards": ["Island", "Island", "Island", "Island", "Island", "Island", "Island", "Island", "Island", "Island", "Island", "Island", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Swamp", "Air Elemental", "Air Elemental", "Air Elemental", "Air Elemental", "Wall of Tears", "Wall of Tears", "Wall of Tears", "Wall of Tears", "Typhoid Rats", "Typhoid Rats", "Typhoid Rats", "Typhoid Rats", "Counterspell", "Counterspell", "Counterspell", "Counterspell", "Unsummon", "Unsummon", "Unsummon", "Unsummon", "Divination", "Divination", "Divination", "Divination", "Doom Blade", "Doom Blade", "Doom Blade", "Doom Blade", "Mind Rot", "Mind Rot", "Mind Rot", "Mind Rot", "Night''s Whisper", "Night''s Whisper", "Night''s Whisper", "Night''s Whisper"], "deck": "dimir", "name": "a"}, {"bot": "random", "cards": ["Mountain", "Mountain", "Mountain", "Mountain", "Mountain", "Mountain", "Mountain", "Mountain", "Mountain", "Mountain", "Mountain", "Mountain", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest", "Grizzly Bears", "Grizzly Bears", "Grizzly Bears", "Grizzly Bears", "Raging Goblin", "Raging Goblin", "Raging Goblin", "Raging Goblin", "Hill Giant", "Hill Giant", "Hill Giant", "Hill Giant", "Giant Spider", "Giant Spider", "Giant Spider", "Giant Spider", "Glistener Elf", "Glistener Elf", "Glistener Elf", "Glistener Elf", "Elvish Visionary", "Elvish Visionary", "Elvish Visionary", "Elvish Visionary", "Lightning Bolt", "Lightning Bolt", "Lightning Bolt", "Lightning Bolt", "Shock", "Shock", "Shock", "Shock", "Giant Growth", "Giant Growth", "Giant Growth", "Giant Growth"], "deck": "gruul", "name": "b"}], "format": "round-robin", "repeat": 1, "rounds": 1, "seed": 1}');
COMMIT;
