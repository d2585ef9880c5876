"""The optimisation problems of the thesis as data: the MVU SDP, its certificates,
facial reduction and the out-of-sample SDP; no solver lives here."""
