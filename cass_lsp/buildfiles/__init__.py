"""Build knowledge shared by verification and build porting: what compiler flags mean elsewhere."""
